/**
 * Snapshots: the campaign state at chosen seqs, kept in the log's LevelDB folder as a cache that can always be thrown
 * away and rebuilt from the events (docs/replays.md). They make "the state at turn N" a read of one snapshot and a
 * fold of the few events after it, instead of a replay from seq 1.
 *
 * A snapshot is used only if it is stamped with this engine's REDUCER_VERSION (else it is stale: the reducers that
 * made it may have meant something else) and with the chain hash of the event at its seq in the line being read (else
 * it is forged, or it belongs to a history that was rewritten). Anything else is skipped and deleted.
 *
 * Snapshots are never evidence: the chain does not cover them. `verify` and the audit read only events, and the
 * engine decides every command from the events alone (src/engine/live.ts), never from a snapshot.
 */
import type { CampaignState } from "../projections/state.js";
import { eventKey, SEQ_DIGITS } from "../src/log/layout.js";
import type { EventStore, Segment, SnapshotCache } from "../src/log/index.js";
import type { TurnPhase } from "./positions.js";
import { deepFreeze } from "../projections/freeze.js";

/**
 * The meaning of the reducers (projections/) the snapshots were folded with. Raise it whenever a reducer or the shape
 * of CampaignState changes: every stored snapshot then turns stale and is rebuilt from the events.
 */
export const REDUCER_VERSION = 11;

/** A snapshot is also taken every SNAPSHOT_EVERY events, for long stretches without a TurnEnded (the set-up, a long turn). */
export const SNAPSHOT_EVERY = 1000;

/** The schedule: the state right after every TurnEnded and every ActionPhaseEnded, and at every SNAPSHOT_EVERY-th seq. */
export function isSnapshotPoint(event: { seq: number; type: string }): boolean {
  return event.type === "TurnEnded" || event.type === "ActionPhaseEnded" || event.seq % SNAPSHOT_EVERY === 0;
}

/**
 * The space a snapshot may take per event since the snapshot before it (characters of JSON; an event is about 400):
 * a scheduled snapshot whose state is larger than this many characters per event folded since the last one is left
 * out, so that snapshots never take more than about five times the log itself, however large the state grows. States
 * of real campaigns (tens of KB, turns of dozens of events) are far below it: they get two snapshots per turn.
 */
export const SNAPSHOT_CHARS_PER_EVENT = 2048;

/** Whether a scheduled snapshot of a state whose JSON is `chars` long is taken, `events` events after the last one. */
export function withinBudget(seq: number, chars: number, events: number): boolean {
  return seq % SNAPSHOT_EVERY === 0 || chars <= events * SNAPSHOT_CHARS_PER_EVENT;
}

/** What a snapshot says about itself, in front of the state. */
export interface SnapshotHeader {
  v: number;
  stream: string;
  seq: number;
  /** The chain hash of the event at `seq`. */
  hash: string;
  turn: number;
  phase: string;
}

export interface Snapshot {
  header: SnapshotHeader;
  state: CampaignState;
  /** The length of the state's JSON: a fold from it knows how large the states after it are, at least. */
  chars: number;
}

/** Where a snapshot is: the stream that holds the event at its seq, and the seq. */
export interface SnapshotAt {
  stream: string;
  seq: number;
}

/** A mark: where a phase of a turn begins, and the snapshot the fold that saw it had taken last before it. */
export interface Mark {
  stream: string;
  turn: number;
  phase: TurnPhase;
  seq: number;
  near?: SnapshotAt | undefined;
}

/** Why a snapshot was not used. */
export type Rejection = "stale" | "forged" | "unreadable";

const MARK = "@";
const PHASE_INDEX: Record<TurnPhase, number> = { action: 0, battle: 1, end: 2 };
const TURN_DIGITS = 10;

/** Key of the mark that says where phase `phase` of turn `turn` begins in `stream`'s own events. */
function markKey(stream: string, turn: number, phase: TurnPhase): string {
  return `${stream}${MARK}${String(turn).padStart(TURN_DIGITS, "0")}.${PHASE_INDEX[phase]}`;
}

/**
 * A snapshot as stored: its header as one line of JSON, a newline, then the JSON of the state. (V8's own serialization
 * was tried: on real states of long campaigns JSON.parse reads them back faster, and JSON can be read by anyone.)
 */
export function encodeSnapshot(header: SnapshotHeader, state: CampaignState): string {
  return `${JSON.stringify(header)}\n${JSON.stringify(state)}`;
}

/** The header and the still-encoded state of a stored snapshot; throws when it has no readable header line. */
export function splitSnapshot(value: string): { header: SnapshotHeader; body: string } {
  const newline = value.indexOf("\n");
  if (newline < 0) throw new SyntaxError("no header");
  return { header: JSON.parse(value.slice(0, newline)) as SnapshotHeader, body: value.slice(newline + 1) };
}

/**
 * The store's snapshot cache (a LevelDB sublevel, or a PostgreSQL table). Keys (see docs/storage.md):
 *   "<stream>#<seq, 12 digits>"              -> header JSON, a newline, the state after that seq (encodeSnapshot)
 *   "<stream>@<turn, 10 digits>.<phase 0-2>" -> a mark: the seq of the event that opens that phase, as text, and
 *                                              after a space the stream and seq of the snapshot before it, if known
 * `stream` is the stream that holds the event at that seq: a branch shares its parent's snapshots and marks up to the
 * fork, as it shares the events.
 */
export class SnapshotStore {
  readonly db: SnapshotCache;
  /** Counts of what was skipped, for tests and the benchmark. */
  readonly rejected: Record<Rejection, number> = { stale: 0, forged: 0, unreadable: 0 };

  constructor(readonly store: EventStore) {
    this.db = store.snapshots;
  }

  /**
   * The latest usable snapshot of `stream`'s line at a seq from `after` + 1 to `atMost`; unusable ones met on the way
   * are deleted. Searches the stream's own stretch first, then its parent's (for a branch), and so on.
   */
  async latest(
    stream: string,
    atMost: number,
    options: { after?: number; unhashed?: boolean } = {},
  ): Promise<Snapshot | undefined> {
    const segments = await this.store.line(stream);
    for (const segment of [...segments].reverse()) {
      const from = Math.max(segment.from, (options.after ?? 0) + 1);
      const to = Math.min(segment.to, atMost);
      if (from > to) continue;
      const found = await this.latestIn(stream, segment, from, to, options.unhashed ?? false);
      if (found) return found;
    }
    return undefined;
  }

  /** Deletes a snapshot found to be forged after all (its stamp against the event read by the caller). */
  async reject(stream: string, seq: number, why: Rejection): Promise<void> {
    this.rejected[why]++;
    await this.db.del(eventKey(stream, seq));
  }

  private async latestIn(
    line: string,
    segment: Segment,
    from: number,
    to: number,
    unhashed: boolean,
  ): Promise<Snapshot | undefined> {
    for (let last = to; last >= from;) {
      // One entry at a time (a state can be large): the newest at or before `last`, in one read.
      const entry = await this.db.last(eventKey(segment.stream, from), eventKey(segment.stream, last));
      if (!entry) return undefined;
      const [key, value] = entry;
      const seq = Number(key.slice(-SEQ_DIGITS));
      const checked = await this.check(line, segment.stream, seq, value, unhashed);
      if ("state" in checked) return checked;
      this.rejected[checked.rejected]++;
      await this.db.del(key);
      last = seq - 1;
    }
    return undefined;
  }

  /**
   * Decodes and checks one stored snapshot against the line it is read for. `unhashed` leaves out the comparison of
   * its hash stamp with the event at its seq, for a caller that reads that event anyway and compares it itself.
   */
  async check(
    line: string,
    stream: string,
    seq: number,
    value: string,
    unhashed = false,
  ): Promise<Snapshot | { rejected: Rejection }> {
    let header: SnapshotHeader;
    let body: string;
    try {
      ({ header, body } = splitSnapshot(value));
    } catch {
      return { rejected: "unreadable" };
    }
    if (header.v !== REDUCER_VERSION) return { rejected: "stale" };
    if (header.seq !== seq || header.stream !== stream) return { rejected: "forged" };
    if (!unhashed && header.hash !== (await this.store.hashAt(line, seq))) return { rejected: "forged" };
    let state: CampaignState;
    try {
      state = JSON.parse(body) as CampaignState;
    } catch {
      return { rejected: "unreadable" };
    }
    if (typeof state !== "object" || state === null || state.seq !== seq) return { rejected: "forged" };
    return { header, state: deepFreeze(state), chars: body.length };
  }

  /**
   * Stores snapshots (each at the seq of its state, under the stream that holds that event), unsynced: a cache.
   * `json` is the state's JSON when the caller has it already.
   */
  async put(
    snapshots: ReadonlyArray<{ stream: string; hash: string; state: CampaignState; json?: string }>,
  ): Promise<void> {
    if (snapshots.length === 0) return;
    await this.db.put(
      snapshots.map(({ stream, hash, state, json }) => {
        const header: SnapshotHeader = {
          v: REDUCER_VERSION,
          stream,
          seq: state.seq,
          hash,
          turn: state.turn,
          phase: state.phase,
        };
        return {
          key: eventKey(stream, state.seq),
          value: json === undefined ? encodeSnapshot(header, state) : `${JSON.stringify(header)}\n${json}`,
        };
      }),
    );
  }

  /** Where phase `phase` of turn `turn` begins in `stream`'s own events, as last recorded (unchecked: a cache). */
  async mark(stream: string, turn: number, phase: TurnPhase): Promise<number | undefined> {
    return (await this.markWithHint(stream, turn, phase))?.seq;
  }

  /** The mark and, if the fold that wrote it took one, the snapshot before it (a hint: it may be gone since). */
  async markWithHint(
    stream: string,
    turn: number,
    phase: TurnPhase,
  ): Promise<{ seq: number; near?: SnapshotAt } | undefined> {
    const value = await this.db.get(markKey(stream, turn, phase));
    if (value === undefined) return undefined;
    const [seq, nearStream, nearSeq] = value.split(" ");
    return nearStream && nearSeq
      ? { seq: Number(seq), near: { stream: nearStream, seq: Number(nearSeq) } }
      : { seq: Number(seq) };
  }

  async putMarks(marks: readonly Mark[]): Promise<void> {
    if (marks.length === 0) return;
    await this.db.put(
      marks.map(({ stream, turn, phase, seq, near }) => ({
        key: markKey(stream, turn, phase),
        value: near ? `${seq} ${near.stream} ${near.seq}` : String(seq),
      })),
    );
  }

  /** The snapshot stored at exactly this seq of a line (under `at.stream`), checked but for its hash stamp (see check). */
  async at(line: string, at: SnapshotAt): Promise<Snapshot | undefined> {
    const value = await this.db.get(eventKey(at.stream, at.seq));
    if (value === undefined) return undefined;
    const checked = await this.check(line, at.stream, at.seq, value, true);
    if ("state" in checked) return checked;
    await this.reject(at.stream, at.seq, checked.rejected);
    return undefined;
  }

  /** The seqs of `stream`'s own stored snapshots (checked or not). */
  async seqs(stream: string): Promise<number[]> {
    const keys = await this.db.keys(eventKey(stream, 0), `${stream}#~`);
    return keys.map((key) => Number(key.slice(-SEQ_DIGITS)));
  }

  /** How many characters a stream's own snapshots take, before LevelDB's compression (for the benchmark and tools). */
  async size(stream: string): Promise<number> {
    let total = 0;
    for await (const value of this.db.values(eventKey(stream, 0), `${stream}#~`)) total += value.length;
    return total;
  }

  /** The stored value of one snapshot, as is (for tests and tools). */
  raw(stream: string, seq: number): Promise<string | undefined> {
    return this.db.get(eventKey(stream, seq));
  }

  /**
   * Throws away every snapshot and mark of a stream (or of every stream), its context snapshot too
   * (replays/context-snapshots.ts): they are rebuilt as replays and the server need them.
   */
  async clear(stream?: string): Promise<void> {
    if (stream === undefined) return this.db.clear();
    await this.db.clear({ gte: `${stream}#`, lte: `${stream}#~` });
    await this.db.clear({ gte: `${stream}${MARK}`, lte: `${stream}${MARK}~` });
    await this.db.clear({ gte: `${stream}$`, lte: `${stream}$~` });
  }
}
