import { seatsOf } from "./seats.js";
import type { CampaignState } from "../../projections/state.js";
import type { Answer, CommandHandler, Outcome, Refused } from "../engine/engine.js";
import type { CampaignView } from "../views/view.js";
import { describeRefusal, type Refusal } from "../rules/refusal.js";
import { dueChores, rejectedReveals } from "./chores.js";
import { checkCommand } from "../engine/command-schemas.js";
import { holdsOpeningOrder, pruneUncommittedOrders } from "./held-orders.js";
import { randomHex } from "../crypto/commitments.js";
import { prepareCommand, type BattleModel, type RandomHex } from "./prepare.js";
import type { SecretKeeper } from "./party-secrets.js";
import { foreignKey, keyChores, organiserKeyDue, prepareSeatKey, signedBatch } from "./seat-keys.js";
import { canSign, type HeldKey } from "../crypto/signatures.js";

export interface TableOptions {
  /** The parties this machine acts for: player ids and/or "host"; default every party of the campaign. */
  parties?: ReadonlySet<string>;
  secrets: SecretKeeper;
  random?: RandomHex;
  /** Take the protocol chores as they fall due (default true). */
  chores?: boolean;
  /**
   * D2: register a key for each party this machine acts for that has none in force, and sign every command with it
   * (default true, where the platform can sign: not a page served over plain HTTP from another machine). A machine
   * that acts for the host signs the organiser's commands with the organiser's own key, registered with its first
   * one, and the host's steps with the host's key (on a server, the server's, kept with the host's seeds).
   */
  signing?: boolean;
  /**
   * The stream the commands are appended to, which signatures name (D2): by default the Table's campaign, the stream
   * it submits to; a RemoteCampaign that plays a branch names the campaign but appends to the branch's stream.
   */
  line?: string;
  /** B4: the battle model the host draws modelled battles with (`options.battles: "model"`); absent: none here. */
  battleModel?: BattleModel;
  /** Makes a party's new key; default a fresh one from the platform's generator (the offline demo's are fixed). */
  newKey?: (party: string) => Promise<HeldKey>;
}

/** How many times a command is signed again when the line moved on while it was sent (D2 binds it to a seq). */
export const RESIGN_ATTEMPTS = 6;
/** How many chores in a row may meet the line moved on under them before the chores are given up. */
export const CHORE_CONFLICTS = 30;

/** A chore the engine refused: the protocol cannot go on by itself. */
export class ChoreRefusedError extends Error {
  override readonly name = "ChoreRefusedError";
  constructor(
    message: string,
    /** Why: a rule, a field, or a conflict with another writer's append. */
    readonly refusal?: Refusal,
  ) {
    super(message);
  }
}

/** The events a handler's answer reports written: as stored for the Engine, as the seat sees them for a server. */
export type WrittenEvents<O extends Answer<unknown>> = Extract<O, { ok: true }>["events"];

/**
 * One machine's seat at a campaign: it prepares the commands of the parties it acts for from their secrets, submits
 * them, and takes the protocol chores (seeds, initiative, reveals, turn ends) as they fall due. It submits to the
 * Engine, or to any other command handler (the golden corpus's MemoryEngine, which keeps no log; a RemoteCampaign on
 * a server). Everything it reads of the state is public to the parties it acts for, so a seat's view (S) serves.
 */
export class Table<S extends CampaignView = CampaignState, O extends Answer<unknown> = Outcome> {
  private readonly random: RandomHex;

  constructor(
    readonly engine: CommandHandler<S, O>,
    readonly campaign: string,
    private readonly options: TableOptions,
  ) {
    this.random = options.random ?? randomHex;
  }

  state(): Promise<S> {
    return this.engine.state(this.campaign);
  }

  /** Prepares and submits one command as written by a party; then takes the chores it made due. */
  async submit(input: unknown, onEvents: (events: WrittenEvents<O>) => void = () => {}): Promise<O> {
    const outcome = await this.prepareAndExecute(input);
    const written = writtenBy(outcome);
    if (written) {
      onEvents(written);
      // A table that takes no chores reads nothing more after its command (takeChores would read the state to answer).
      if (this.options.chores !== false) await this.takeChores(onEvents);
    }
    return outcome;
  }

  /**
   * The secret a command commits to is made durable before the command is decided: if the process dies between the
   * two, the log holds no commitment without its secret (a secret with no commitment is harmless, and pruned when
   * its turn ends). A command that fails its schema check commits to nothing, so nothing is kept for it. The organiser's
   * first command registers the organiser's own key (D2), made and kept here, in the same batch.
   */
  private async prepareAndExecute(input: unknown): Promise<O> {
    let state = await this.state();
    const stranger = notASeat(state, input);
    if (stranger) return { ok: false, index: 0, refusal: stranger } as Refused as O;
    const prepared =
      (this.signing && (await prepareSeatKey(state, input, this.options.secrets, this.options.newKey))) ||
      (await prepareCommand(state, input, this.options.secrets, this.random, this.options.battleModel));
    if (checkCommand(prepared.command).ok) {
      if ((prepared.command as { type: string }).type === "EndTurn") await this.pruneUncommittedOrders(state);
      await prepared.keep();
    }
    const foreign = this.signing ? await foreignKey(state, prepared.command, this.options.secrets) : undefined;
    if (foreign) return { ok: false, index: 0, refusal: foreign } as Refused as O;
    const key = this.signing ? await this.organiserKey(state, input) : undefined;
    for (let attempt = 1; ; attempt++) {
      const { line = this.campaign, secrets } = this.options;
      const commands = this.signing
        ? await signedBatch(state, line, prepared.command, secrets, key)
        : [prepared.command];
      const outcome = await this.engine.execute(this.campaign, commands);
      const answer: Answer<unknown> = outcome;
      if (!answer.ok && commands.length > 1) answer.index = Math.max(0, answer.index - 1);
      if (
        answer.ok ||
        answer.refusal.kind !== "conflict" ||
        commands.at(-1) === prepared.command ||
        attempt >= RESIGN_ATTEMPTS
      )
        return outcome;
      // Signed again at the line's new seq while the turn it was prepared in goes on, as a stale seq is retried.
      const preparedIn = state.turn;
      state = await this.state();
      if (state.turn !== preparedIn) return outcome;
    }
  }

  /** The registration of the organiser's own key, its key made and kept, where the command is its first (D2). */
  private async organiserKey(state: S, input: unknown): Promise<Record<string, unknown> | undefined> {
    const due = organiserKeyDue(state, input);
    if (!due) return undefined;
    const registration = (await prepareSeatKey(state, due, this.options.secrets, this.options.newKey))!;
    await registration.keep();
    return registration.command as Record<string, unknown>;
  }

  /** Off where asked, and where the platform cannot sign (a page over plain HTTP): its commands go unsigned. */
  private get signing(): boolean {
    return (this.options.signing ?? true) && canSign();
  }

  /** Orders this machine's players kept this turn for commands that were refused: no activation commits to them. */
  private async pruneUncommittedOrders(state: S): Promise<void> {
    for (const player of state.setup?.players.map((p) => p.id) ?? []) {
      if (this.options.parties && !this.options.parties.has(player)) continue;
      await pruneUncommittedOrders(state, this.options.secrets, player);
    }
  }

  /**
   * Takes every chore that is due for this machine's parties, until none is; the state then, in which none is due: a
   * decision is made on it, not on a later read, in which another party's command may have made a chore due (a reveal
   * once its army is attacked, T5) that a decision would then be given before. A chore that meets the line moved on
   * under it (a conflict: another seat wrote first, or its answer was lost) is not refused: the chores due are read
   * again.
   */
  async takeChores(onEvents: (events: WrittenEvents<O>) => void = () => {}): Promise<S> {
    if (this.options.chores === false) return this.state();
    for (let conflicts = 0; ;) {
      const state = await this.state();
      const parties = this.options.parties ?? new Set(seatsOf(state));
      const chores = [
        ...(this.signing ? keyChores(state, parties) : []),
        ...dueChores(state, parties, await this.revealableAgain(state, parties)),
      ];
      if (chores.length === 0) return state;
      for (const chore of chores) {
        const outcome: Answer<unknown> = await this.prepareAndExecute(chore);
        if (!outcome.ok && (outcome.refusal.kind !== "conflict" || ++conflicts >= CHORE_CONFLICTS))
          throw new ChoreRefusedError(
            `${chore["actor"]}'s ${String(chore["type"])} was refused: ${describeRefusal(outcome.refusal)}`,
            outcome.refusal,
          );
        if (!outcome.ok) break;
        conflicts = 0;
        onEvents(outcome.events as WrittenEvents<O>);
      }
    }
  }

  /**
   * T5: the armies of these parties whose reveal was rejected this turn and whose secrets here hold the order that opens
   * the commitment (kept by another of the player's devices, or given by hand with the wrong salt): revealed from them.
   */
  private async revealableAgain(state: S, parties: ReadonlySet<string>): Promise<Set<string>> {
    const armies = new Set<string>();
    for (const { player, army } of rejectedReveals(state, parties))
      if (await holdsOpeningOrder(state, this.options.secrets, player, army)) armies.add(army);
    return armies;
  }
}

/**
 * Each seat's chores in turn until none has any left: where one machine seats several parties apart, each with its own
 * secrets, one party's chore can make another's due (the players' seeds, then the host's start of the turn).
 */
export async function takeChoresInTurn(
  seats: Iterable<{ takeChores(onEvents: () => void): Promise<unknown> }>,
): Promise<void> {
  const all = [...seats];
  for (let took = true; took;) {
    took = false;
    for (const seat of all) await seat.takeChores(() => (took = true));
  }
}

/** An actor that is no seat of the campaign is refused first, whatever else the command holds: it names no secrets. */
function notASeat(state: CampaignView, input: unknown): Refusal | undefined {
  const actor = (input as { actor?: unknown } | null)?.actor;
  if (!state.setup || typeof input !== "object" || input === null || actor === undefined) return undefined;
  const seats = seatsOf(state);
  if (typeof actor === "string" && seats.includes(actor)) return undefined;
  return {
    kind: "field",
    field: "actor",
    message: `${JSON.stringify(actor)} is not a player of this campaign (a command is given by ${seats.join(", ")})`,
  };
}

/** The events an accepted command wrote, or undefined for a refusal. */
function writtenBy<O extends Answer<unknown>>(outcome: O): WrittenEvents<O> | undefined {
  const answer: Answer<unknown> = outcome;
  return answer.ok ? (answer.events as WrittenEvents<O>) : undefined;
}
