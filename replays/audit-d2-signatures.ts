import { ENVELOPE_MEMBERS, type DomainEvent, type StoredEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { COMMAND_DOMAIN } from "../src/crypto/signatures.js";
import { decide } from "../src/engine/decide.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { keyPartyOf, requiredKey, type SignatureCheck } from "../src/rules/seat-keys.js";
import { HOST, ORGANISER } from "../events/common.js";
import type { AdvancedCheck, CheckedEvent } from "./audit-advanced.js";
import type { Finding, SignatureSummary } from "./audit-report.js";
import { SIGNATURE_VERDICTS } from "./audit-report.js";

/**
 * D2 (docs/signatures.md): every event of the log is either the first event of a command its party signed, checked
 * against the party's key in force at that event, or one the audit recomputes by deciding that signed command again
 * (`decide`, as the engine did); an event of a party with a key in force that is neither was written by someone else.
 * Events of a party with no key in force (every event of a log from before keys) are counted as unsigned, not
 * failed. The envelope holds the documented members only, and the recorded times never go back.
 */

const V = SIGNATURE_VERDICTS;

/**
 * The first events of the organiser's commands (ORGANISER_COMMANDS) when the host writes them: an unsigned one is the
 * organiser's, judged against the organiser's key, not the host's.
 */
const ORGANISER_EVENTS: ReadonlySet<string> = new Set([
  "CampaignPaused",
  "CampaignResumed",
  "ActionDeadlineSet",
  "ActionDeadlineEnforced",
  "ActionPhaseEnded",
]);

/** The members an event's envelope may have (docs/storage.md, The raw log), `hash` as a stored event carries it. */
const ENVELOPE = new Set([...ENVELOPE_MEMBERS, "hash"]);

/** An event as the audit reads it, with its signed command and, on a line that crosses a fork, its stream. */
type SignedEvent = CheckedEvent & Partial<Pick<StoredEvent, "command" | "stream">>;

type Report = (finding: Finding) => void;

interface Owed {
  /** The signed command's event. */
  seq: number;
  events: Array<Pick<DomainEvent, "type" | "data"> & { actor: string }>;
}

export class SignatureAudit implements AdvancedCheck {
  private readonly keys = new Map<string, string>();
  private owed: Owed | null = null;
  /** The batch of the last signed command: its party and time. What follows it in the batch is its own to judge. */
  private batch: { actor: string; at: string } | null = null;
  private lastAt: { seq: number; at: string; time: number } | null = null;
  /** The first seq of the run of events recorded at the current event's time: a batch is decided at one time. */
  private runStart = 1;
  readonly summary: SignatureSummary = { signed: 0, derived: 0, unsigned: {}, replacements: [], organiser: [] };
  /** The batch of an unsigned command of the organiser's: what follows it in the batch is the organiser's too. */
  private unsignedOrganiser: { actor: string; at: string } | null = null;

  /** The stream of the event before, on a line that crosses a fork. */
  private lastStream: string | undefined;

  /** The turn under way at the event being judged, which its findings are filed under; null outside a turn. */
  private turn: number | null = null;

  constructor(
    private readonly file: Report,
    private readonly verify: SignatureCheck,
    private readonly stream: string,
  ) {}

  before(event: SignedEvent, state: CampaignState): void {
    this.turn = state.turnState ? state.turn : null;
    this.checkEnvelope(event);
    this.checkTime(event);
    const opensStream = event.stream !== undefined && event.stream !== this.lastStream;
    this.lastStream = event.stream;
    if (event.command) this.takeSigned(event, state, opensStream);
    if (this.owed) return this.takeOwed(event);
    if (event.command) return;
    // Written in the batch of a signed command whose events were already found wrong: one finding is enough.
    if (this.batch?.actor === event.actor && this.batch.at === event.at) return;
    this.batch = null;
    const party = this.unsignedParty(event);
    if (this.keys.has(party)) {
      this.report({
        verdict: V.unsigned,
        player: party,
        seqs: [event.seq],
        detail: `${event.type} (seq ${event.seq}) is ${party}'s, who had a key in force, but no signed command of ${party}'s gives it: someone else wrote it`,
      });
    } else {
      this.summary.unsigned[party] = (this.summary.unsigned[party] ?? 0) + 1;
    }
  }

  /**
   * Whose key an unsigned event should have been signed by: the organiser's for the first event of an organiser's
   * command and those after it in its batch, else its actor's.
   */
  private unsignedParty(event: SignedEvent): string {
    const { actor, at } = event;
    if (this.unsignedOrganiser?.actor === actor && this.unsignedOrganiser.at === at) return ORGANISER;
    this.unsignedOrganiser = null;
    if (actor !== HOST || !ORGANISER_EVENTS.has(event.type)) return actor;
    this.unsignedOrganiser = { actor, at };
    this.summary.organiser.push({ seq: event.seq, type: event.type, signedBy: null });
    return ORGANISER;
  }

  after(event: SignedEvent): void {
    if (event.type !== "SeatKeyRegistered") return;
    this.keys.set(event.data.party, event.data.publicKey);
    if (event.data.replaces !== null)
      this.summary.replacements.push({ party: event.data.party, seq: event.seq, at: event.at });
  }

  private checkEnvelope(event: SignedEvent): void {
    const extra = Object.keys(event).filter((member) => !ENVELOPE.has(member));
    if (extra.length > 0)
      this.report({
        verdict: V.envelope,
        seqs: [event.seq],
        detail: `event ${event.seq}'s envelope has ${extra.join(", ")}, beyond the documented members (docs/storage.md)`,
      });
  }

  private checkTime(event: SignedEvent): void {
    const time = Date.parse(event.at);
    if (this.lastAt && time < this.lastAt.time)
      this.report({
        verdict: V.timeBack,
        seqs: [event.seq, this.lastAt.seq],
        detail: `event ${event.seq} is recorded at ${event.at}, before event ${this.lastAt.seq} (${this.lastAt.at}): recorded times never go back`,
      });
    if (this.lastAt?.at !== event.at) this.runStart = event.seq;
    if (!this.lastAt || time >= this.lastAt.time) this.lastAt = { seq: event.seq, at: event.at, time };
  }

  /** A signed command: its text, its signature by the key it must verify with, and the events it decides to. */
  private takeSigned(event: SignedEvent, state: CampaignState, opensStream: boolean): void {
    const { signed, signature } = event.command!;
    if (this.owed) this.missing(event.seq);
    this.batch = { actor: event.actor, at: event.at };
    const fail = (detail: string) => {
      this.owed = null;
      this.report({
        verdict: V.forged,
        player: event.actor,
        seqs: [event.seq],
        detail: `event ${event.seq}: ${detail}`,
      });
    };
    let text: { domain?: unknown; campaign?: unknown; line?: unknown; seq?: unknown; command?: unknown };
    try {
      text = JSON.parse(signed) as typeof text;
    } catch {
      return fail("its signed command is not JSON");
    }
    const line = event.stream ?? this.stream;
    if (text.domain !== COMMAND_DOMAIN || text.campaign !== state.campaign || text.line !== line)
      return fail(
        `its signed command is not for this campaign and line (${String(text.campaign)}, ${String(text.line)})`,
      );
    if (typeof text.seq !== "number" || text.seq >= event.seq || text.seq < this.runStart - 1)
      return fail(
        `its command was signed at seq ${String(text.seq)}, not at the seq of the batch it was written in (${this.runStart - 1})`,
      );
    const checked = checkCommand(text.command);
    if (!checked.ok) return fail(`its signed command is not a command (${checked.field}: ${checked.message})`);
    const command = checked.command;
    if (command.actor !== event.actor) return fail(`its command is ${command.actor}'s, not ${event.actor}'s`);
    const { signer, key } = requiredKey((party) => this.keys.get(party), command);
    if (key === undefined) return fail(`${signer} had no key in force to sign with`);
    if (!this.verify(key, signed, signature))
      return fail(`the signature is not by ${signer}'s key ${key.slice(0, 12)} over its signed command`);
    if (keyPartyOf(command) === ORGANISER)
      this.summary.organiser.push({ seq: event.seq, type: event.type, signedBy: signer === HOST ? HOST : ORGANISER });
    // A fork's declaration of what it voids is a branch's first event only (docs/replays.md).
    if (command.type === "ForkLine" && !opensStream)
      return fail("its ForkLine is not the first event of a branch: only a fork voids what was open at it");
    const decision = decide(state, command, event.at);
    if (!decision.ok)
      return fail(
        `the rules refuse its signed ${command.type} on the campaign as it stood: ${describeRefusal(decision.refusal)}`,
      );
    this.summary.signed++;
    this.owed = { seq: event.seq, events: decision.events.map((e) => ({ ...e, actor: command.actor })) };
  }

  /** The next event the signed command decides to must be this one. */
  private takeOwed(event: SignedEvent): void {
    const owed = this.owed!;
    const next = owed.events.shift()!;
    if (owed.events.length === 0) this.owed = null;
    if (event.seq !== owed.seq) this.summary.derived++;
    if (
      next.type === event.type &&
      next.actor === event.actor &&
      canonicalJson(next.data) === canonicalJson(event.data)
    )
      return;
    this.owed = null;
    this.report({
      verdict: V.notDecided,
      player: event.actor,
      seqs: [event.seq, owed.seq],
      detail: `${event.type} (seq ${event.seq}) is not what the signed command of seq ${owed.seq} decides to (${next.type} ${canonicalJson(next.data).slice(0, 120)})`,
    });
  }

  private report(finding: Omit<Finding, "turn">): void {
    this.file({ ...finding, turn: this.turn });
  }

  private missing(seq: number): void {
    const owed = this.owed!;
    this.owed = null;
    this.report({
      verdict: V.notDecided,
      seqs: [owed.seq, seq],
      detail: `the signed command of seq ${owed.seq} decides to ${owed.events.map((e) => e.type).join(", ")} next, which the log lacks before seq ${seq}`,
    });
  }

  /** At the end of the log: a signed command whose events stop short. */
  finish(): void {
    if (this.owed) this.missing(this.lastAt ? this.lastAt.seq + 1 : 0);
  }
}
