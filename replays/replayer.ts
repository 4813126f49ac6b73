/**
 * Replays: the state of a campaign (or of a branch: every reader reads a branch's line the same way) at any point of
 * its log, and stepping through it one event, one activation or one phase at a time.
 *
 * The state at seq N is the nearest usable snapshot at or before N (replays/snapshots.ts) with the events after it
 * folded in, one immer transaction per batch. Folds record snapshots and phase marks on the schedule as they pass, so
 * the first look at a long log pays for one replay and later looks read one snapshot and a few events.
 */
import { toCurrent, type CurrentEvent, type StoredEvent } from "../events/index.js";
import { evolveAll } from "../projections/campaign.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { blameBrokenLog, CorruptEventError, type EventStore } from "../src/log/index.js";
import { endsActivation, isPhaseStop, opens, type Position, type StepUnit, type TurnPhase } from "./positions.js";
import {
  isSnapshotPoint,
  SNAPSHOT_EVERY,
  SnapshotStore,
  withinBudget,
  type Mark,
  type Snapshot,
  type SnapshotAt,
} from "./snapshots.js";

/** A point that is not in the log: a seq past the head, a turn that has not begun. */
export class ReplayError extends Error {
  override readonly name = "ReplayError";
}

export interface ReplayOptions {
  /** Start from snapshots and record them on the schedule (default true); false replays every event from seq 1. */
  snapshots?: boolean;
}

export interface StateAt {
  state: CampaignState;
  /** The snapshot the fold started from, or 0 for a replay from the first event. */
  from: number;
  /** Events folded in after it. */
  folded: number;
}

/** Events folded per immer transaction: big enough that the per-transaction cost vanishes, small enough to stream. */
const FOLD_BATCH = 4000;
/** Snapshots written at a time while a long fold records them. */
const WRITE_BATCH = 64;

/** Asks for the next item of an async iterator before the current one is processed: the next read overlaps the fold. */
async function* prefetch<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      yield result.value;
    }
  } finally {
    // Let a read already asked for finish before the iterator is closed.
    await next.catch(() => undefined);
    await iterator.return?.(undefined);
  }
}

export class Replays {
  readonly snapshots: SnapshotStore;
  private readonly useSnapshots: boolean;

  constructor(
    readonly store: EventStore,
    options: ReplayOptions = {},
  ) {
    this.snapshots = new SnapshotStore(store);
    this.useSnapshots = options.snapshots ?? true;
  }

  /** The last seq of a stream's line. */
  async head(stream: string): Promise<number> {
    return (await this.store.head(stream)).seq;
  }

  /** The seq a position names (see replays/positions.ts). */
  async resolve(stream: string, position: Position): Promise<number> {
    const head = await this.head(stream);
    if ("seq" in position) {
      if (!Number.isInteger(position.seq) || position.seq < 0 || position.seq > head) {
        // Past a head that was cut back or deleted, the seq may well be stored: the log is broken, not the question.
        if (position.seq > head && (await this.store.storedAfterHead(stream)) !== undefined) {
          throw new CorruptEventError(
            stream,
            head + 1,
            `is stored after the head, which counts ${head} events: the head was truncated`,
          );
        }
        throw new ReplayError(`${stream} has events 1 to ${head}: there is no seq ${position.seq}`);
      }
      return position.seq;
    }
    return this.phaseStart(stream, position.turn, position.phase ?? "action");
  }

  /** The state at a position. */
  async stateAt(stream: string, position: Position, options: ReplayOptions = {}): Promise<StateAt> {
    if ((options.snapshots ?? this.useSnapshots) && !("seq" in position)) {
      const quick = await this.phaseStateQuickly(stream, position.turn, position.phase ?? "action");
      if (quick) return quick;
    }
    return this.stateAtSeq(stream, await this.resolve(stream, position), options);
  }

  /**
   * The state where a phase begins, in as few reads as there can be: the phase's mark and the snapshot before it are
   * taken on trust and then checked against the events the fold reads anyway: the snapshot's own event (its hash
   * stamp) and the last one (it must open that phase). Undefined when there is no mark or a check fails; the careful
   * path (resolve, then stateAtSeq) then checks each part on its own and repairs the cache.
   */
  private async phaseStateQuickly(stream: string, turn: number, phase: TurnPhase): Promise<StateAt | undefined> {
    const segments = await this.store.line(stream);
    let mark: { seq: number; near?: SnapshotAt } | undefined;
    for (const segment of [...segments].reverse()) {
      const marked = await this.snapshots.markWithHint(segment.stream, turn, phase);
      if (marked !== undefined && marked.seq >= segment.from && marked.seq <= segment.to) {
        mark = marked;
        break;
      }
    }
    if (mark === undefined || mark.seq > (await this.head(stream))) return undefined;
    const seq = mark.seq;
    let snapshot: Snapshot | undefined;
    let events: StoredEvent[];
    const near = mark.near;
    if (near && near.seq <= seq) {
      // The snapshot the mark names and the events from it on, read side by side.
      [snapshot, events] = await Promise.all([
        this.snapshots.at(stream, near),
        this.store.readAll(stream, Math.max(near.seq, 1), seq),
      ]);
      if (!snapshot) events = await this.store.readAll(stream, 1, seq);
    } else {
      snapshot = await this.snapshots.latest(stream, seq, { unhashed: true });
      events = await this.store.readAll(stream, Math.max(snapshot?.state.seq ?? 0, 1), seq);
    }
    const start = snapshot?.state ?? initialState;
    if (snapshot && events[0]?.hash !== snapshot.header.hash) {
      await this.snapshots.reject(snapshot.header.stream, start.seq, "forged");
      return undefined;
    }
    const last = events.at(-1);
    const opened = last && opens(last);
    if (!last || last.seq !== seq || !opened || opened.turn !== turn || opened.phase !== phase) return undefined;
    const state = await this.foldEvents(start, [snapshot ? events.slice(1) : events], {
      record: true,
      ...(snapshot ? { from: snapshot.header, fromChars: snapshot.chars } : {}),
    }).catch(async (error: unknown) => Promise.reject(await blameBrokenLog(this.store, stream, error)));
    return { state, from: start.seq, folded: seq - start.seq };
  }

  async stateAtSeq(stream: string, seq: number, options: ReplayOptions = {}): Promise<StateAt> {
    const useSnapshots = options.snapshots ?? this.useSnapshots;
    const snapshot = useSnapshots && seq > 0 ? await this.snapshots.latest(stream, seq) : undefined;
    const start = snapshot?.state ?? initialState;
    const state = await this.fold(stream, start, seq, {
      record: useSnapshots,
      ...(snapshot ? { from: snapshot.header, fromChars: snapshot.chars } : {}),
    });
    return { state, from: start.seq, folded: seq - start.seq };
  }

  /** The state after the last event: a full replay unless snapshots are on. */
  async current(stream: string, options: ReplayOptions = {}): Promise<CampaignState> {
    return (await this.stateAtSeq(stream, await this.head(stream), options)).state;
  }

  /**
   * Folds events state.seq + 1 .. `to` of a stream's line into `state`. With `record`, stores a snapshot at each
   * scheduled point it passes and a mark at each phase it sees begin.
   *
   * `to` is a seq of the line (at most its head): a line that ends before it lost events outside the engine, and a fold
   * that throws on a line that fails verification is that line's fault; either is a CorruptEventError naming the seq.
   */
  async fold(
    stream: string,
    state: CampaignState,
    to: number,
    options: { record?: boolean; from?: SnapshotAt; fromChars?: number } = {},
  ): Promise<CampaignState> {
    let folded = state;
    try {
      if (to > state.seq)
        folded = await this.foldEvents(state, prefetch(this.store.readBatches(stream, state.seq + 1, to)), {
          ...options,
          marking: state.seq === 0 || to - state.seq >= SNAPSHOT_EVERY,
        });
    } catch (error) {
      throw await blameBrokenLog(this.store, stream, error);
    }
    if (folded.seq !== to)
      throw new CorruptEventError(
        stream,
        folded.seq + 1,
        `is missing: the line ends at seq ${folded.seq}, before seq ${to}`,
      );
    return folded;
  }

  /**
   * Folds batches of events into a state, one immer transaction per FOLD_BATCH events. With `record`, stores a
   * snapshot at each scheduled point it passes and, with `marking` too, a mark at each phase it sees begin. (Marks are
   * written by folds from the start and long folds, and by phaseStart when it has to search: a short fold from a
   * snapshot passes phases whose marks are there already, and rewriting them would cost a write on every look.)
   */
  private async foldEvents(
    state: CampaignState,
    batches: AsyncIterable<StoredEvent[]> | Iterable<StoredEvent[]>,
    options: { record?: boolean; marking?: boolean; from?: SnapshotAt; fromChars?: number },
  ): Promise<CampaignState> {
    const record = options.record ?? false;
    const marking = options.marking ?? false;
    let pending: CurrentEvent[] = [];
    let snapshots: Array<{ stream: string; hash: string; state: CampaignState; json: string }> = [];
    let marks: Mark[] = [];
    // The snapshot taken last before the current event (the one the fold started from, or one it took): each mark
    // names it, so that a look at that phase can read the snapshot and the events after it at once.
    let near = options.from && { stream: options.from.stream, seq: options.from.seq };
    let since = options.from?.seq ?? 0;
    let knownChars = options.fromChars ?? 0;
    const writes: Array<Promise<void>> = [];
    for await (const batch of batches) {
      for (const event of batch) {
        pending.push(toCurrent(event));
        if (!record) continue;
        // A state no smaller than the last one measured would be over the budget: not written out only to be dropped
        // (a campaign's state hardly ever shrinks; were it to, a snapshot is skipped, never a wrong one taken).
        if (isSnapshotPoint(event) && withinBudget(event.seq, knownChars, event.seq - since)) {
          state = evolveAll(state, pending);
          pending = [];
          const json = JSON.stringify(state);
          knownChars = json.length;
          if (withinBudget(event.seq, json.length, event.seq - since)) {
            snapshots.push({ stream: event.stream, hash: event.hash, state, json });
            near = { stream: event.stream, seq: event.seq };
            since = event.seq;
          }
        }
        // After the snapshot step: a phase whose opening event has a snapshot of its own is looked at from there.
        const opened = marking && opens(event);
        if (opened) marks.push({ stream: event.stream, ...opened, seq: event.seq, near });
      }
      if (pending.length >= FOLD_BATCH) {
        state = evolveAll(state, pending);
        pending = [];
      }
      if (snapshots.length >= WRITE_BATCH) {
        writes.push(this.snapshots.put(snapshots));
        snapshots = [];
      }
      if (marks.length >= FOLD_BATCH) {
        writes.push(this.snapshots.putMarks(marks));
        marks = [];
      }
    }
    state = evolveAll(state, pending);
    writes.push(this.snapshots.put(snapshots), this.snapshots.putMarks(marks));
    await Promise.all(writes);
    return state;
  }

  /**
   * The seq where phase `phase` of turn `turn` begins in a stream's line: from its mark, checked against the event
   * it names; without one, found by reading the log (marking every phase on the way).
   */
  async phaseStart(stream: string, turn: number, phase: TurnPhase): Promise<number> {
    const matches = (event: Pick<StoredEvent, "type" | "data"> | undefined) => {
      const opened = event && opens(event);
      return opened !== undefined && opened.turn === turn && opened.phase === phase;
    };
    const segments = await this.store.line(stream);
    for (const segment of [...segments].reverse()) {
      const seq = await this.snapshots.mark(segment.stream, turn, phase);
      if (
        seq !== undefined &&
        seq >= segment.from &&
        seq <= segment.to &&
        matches(await this.store.eventAt(stream, seq))
      )
        return seq;
    }
    const marks: Mark[] = [];
    let found: number | undefined;
    let last = 0;
    search: for await (const batch of this.store.readBatches(stream)) {
      for (const event of batch) {
        const opened = opens(event);
        if (!opened) continue;
        marks.push({ stream: event.stream, ...opened, seq: event.seq });
        last = opened.turn;
        if (matches(event)) {
          found = event.seq;
          break search;
        }
      }
    }
    await this.snapshots.putMarks(marks);
    if (found === undefined) {
      throw new ReplayError(
        `${phase === "action" ? "" : `the ${phase} phase of `}turn ${turn} has not begun in ${stream}${last ? ` (the log reaches turn ${last})` : " (no turn has begun)"}`,
      );
    }
    return found;
  }

  /**
   * Where one step from `seq` lands, or undefined when there is nothing that way:
   * - event: seq + 1 or seq - 1;
   * - activation: forward, to the end of the next activation (the event before the next ArmyActivated or phase
   *   change); back, to just before the last activation begun at or before `seq`;
   * - phase: forward, to the next start of a phase (or the end of the set-up or of the campaign); back, to the last
   *   one before `seq`.
   */
  async step(stream: string, seq: number, unit: StepUnit, direction: "forward" | "back"): Promise<number | undefined> {
    const head = await this.head(stream);
    if (unit === "event") {
      const target = direction === "forward" ? seq + 1 : seq - 1;
      return target >= 0 && target <= head ? target : undefined;
    }
    if (direction === "forward") {
      let activated: number | undefined;
      for await (const batch of this.store.readBatches(stream, seq + 1)) {
        for (const event of batch) {
          if (unit === "phase") {
            if (isPhaseStop(event)) return event.seq;
          } else if (activated === undefined) {
            if (event.type === "ArmyActivated") activated = event.seq;
          } else if (endsActivation(event)) {
            return event.seq - 1;
          }
        }
      }
      return activated === undefined ? undefined : head;
    }
    if (unit === "phase") {
      const stop = await this.findBack(stream, seq - 1, isPhaseStop);
      return stop ?? (seq > 0 ? 0 : undefined);
    }
    const activation = await this.findBack(stream, seq, (event) => event.type === "ArmyActivated");
    return activation === undefined ? undefined : activation - 1;
  }

  /** The seq of the last TurnStarted at or before `seq`. */
  lastTurnStart(stream: string, seq: number): Promise<number | undefined> {
    return this.findBack(stream, seq, (event) => event.type === "TurnStarted");
  }

  /** The seq of the last event at or before `seq` that matches, reading back in growing windows. */
  async findBack(stream: string, seq: number, match: (event: StoredEvent) => boolean): Promise<number | undefined> {
    let hi = seq;
    let size = 256;
    while (hi >= 1) {
      const lo = Math.max(1, hi - size + 1);
      const events = await this.store.readAll(stream, lo, hi);
      for (let i = events.length - 1; i >= 0; i--) if (match(events[i]!)) return events[i]!.seq;
      hi = lo - 1;
      size *= 4;
    }
    return undefined;
  }
}

/** A position in a stream's log with its state, moved by steps: what a replay viewer holds. */
export class ReplayCursor {
  private constructor(
    private readonly replays: Replays,
    readonly stream: string,
    private current: CampaignState,
  ) {}

  static async open(replays: Replays, stream: string, position: Position = { seq: 0 }): Promise<ReplayCursor> {
    return new ReplayCursor(replays, stream, (await replays.stateAt(stream, position)).state);
  }

  get seq(): number {
    return this.current.seq;
  }

  get state(): CampaignState {
    return this.current;
  }

  /** Moves to a position. */
  async to(position: Position): Promise<CampaignState> {
    const seq = await this.replays.resolve(this.stream, position);
    this.current =
      seq >= this.current.seq
        ? await this.replays.fold(this.stream, this.current, seq)
        : (await this.replays.stateAtSeq(this.stream, seq)).state;
    return this.current;
  }

  /** One step forward; false (and no move) at the end of the log or where there is no further unit. */
  async forward(unit: StepUnit = "event"): Promise<boolean> {
    const target = await this.replays.step(this.stream, this.current.seq, unit, "forward");
    if (target === undefined) return false;
    this.current = await this.replays.fold(this.stream, this.current, target);
    return true;
  }

  /** One step back; false (and no move) at the start of the log or where there is no earlier unit. */
  async back(unit: StepUnit = "event"): Promise<boolean> {
    const target = await this.replays.step(this.stream, this.current.seq, unit, "back");
    if (target === undefined) return false;
    this.current = (await this.replays.stateAtSeq(this.stream, target)).state;
    return true;
  }
}
