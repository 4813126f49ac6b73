import type { SeatEvent } from "./seat-event.js";
import type { AuditReport } from "../../replays/audit-report.js";
import type { TimelineEntry } from "../../replays/timeline.js";
import type { Answer, CommandHandler } from "../engine/engine.js";
import type { CampaignView } from "../views/view.js";
import { ReceiptError, type TextVerifier } from "../crypto/receipts.js";
import { deepFreeze } from "../../projections/freeze.js";
import { sealedContext } from "../views/chain.js";
import type { ViewContext } from "../views/view.js";
import { landed } from "./landed.js";
import { checkAnswer, MemoryReceiptBook, type KeptReceipt, type ReceiptBook, type SentCommands } from "./receipts.js";
import {
  refusedAccess,
  serverFailing,
  ServerError,
  type ServerAnswer,
  type ServerConnection,
  type ServerErrorBody,
} from "./server.js";

/** A command's answer that never came. */
const LOST = Symbol("lost");

/** An event as a seat gets it from the server: as stored for the organiser, a player's view (no hashes) for a player. */
export type { SeatEvent };

/** What a remote command answers: the events written, as the seat sees them, or a refusal. */
export type RemoteOutcome = Answer<SeatEvent>;

/**
 * How often a command is sent again after the log moved on under it (409 stale). Each retry re-reads the state
 * first; a campaign that keeps moving faster than that is reported as a conflict, for the player to try again.
 */
const STALE_RETRIES = 5;

/** How often a command whose answer was lost, and which the log shows was not written, is sent again on its seq. */
const LOST_RETRIES = 20;

const isSigned = (input: unknown): boolean =>
  typeof input === "object" && input !== null && (input as { signature?: unknown }).signature !== undefined;

/**
 * A campaign on a server as one seat plays it: the CommandHandler a Table submits to (src/engine/engine.ts), over HTTP.
 * Its state is the seat's view (viewState: the other side's secrets are "hidden"), which is all a Table, prepare
 * and the chores read. Each command carries the seq of the last state it read (`expectedSeq`); if the log moved on
 * since (409), it re-reads and sends the same command again, as long as it still falls in the turn it was prepared
 * in (a commitment or a seed is bound to its turn). A refusal of the command (422, 400, a 403 naming its actor) comes
 * back as the Refusal value the CLI prints; a bad token (401), another campaign's token (403), a missing campaign or
 * an unreachable server is thrown as a ServerError.
 *
 * On a connection that reconnects (ConnectionOptions.reconnect), a command whose answer is lost (the connection cut,
 * or a 5xx) is never simply sent again: once the server answers, the log after the seq the command expected says
 * whether it was written (its events come first there, src/client/landed.ts). If it was, those events are its
 * answer; if nothing was written, it is sent again on that seq; if another command was, it is as for a 409.
 */
export class RemoteCampaign implements CommandHandler<CampaignView, RemoteOutcome> {
  /** The seq and turn of the last state read or command accepted: what the next command expects. */
  private last: { seq: number; turn: number } | undefined;

  /** The server's key, pinned (GET /server-key) before the first command. */
  private serverKey: string | undefined;
  /** The line's set-up as last read: what the seat's view chain is judged with. */
  private sealed: ViewContext | undefined;
  /** The campaign now as last read, with its ETag, for the next read to be answered "unchanged" (304). */
  private current: { path: string; etag: string; state: CampaignView } | undefined;

  constructor(
    readonly server: ServerConnection,
    /** A branch's name (`?branch=`) for reads; commands go to the campaign's own line unless `playBranch`. */
    private readonly branch?: string,
    /** Commands go to the branch too: the branch is played on (the web page's what-if). */
    private readonly playBranch = false,
    /** Where the seat keeps its receipts and the commands sent without one (in memory unless given). */
    readonly receipts: ReceiptBook = new MemoryReceiptBook(),
    /** How receipts' signatures are checked: Web Crypto's unless given (a client on Node gives node:crypto's). */
    private readonly verify?: TextVerifier,
  ) {}

  /** A route of the campaign; `query` may set `branch` itself (commands set none: they go to the campaign's own line). */
  private path(campaign: string, route: string, query: Record<string, string | number | undefined> = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ branch: this.branch, ...query }))
      if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `/campaigns/${encodeURIComponent(campaign)}/${route}${search ? `?${search}` : ""}`;
  }

  /** The campaign now, as this seat may see it. */
  async state(campaign: string): Promise<CampaignView> {
    // The server's key is pinned with the first read, before any command needs it.
    const [state] = await Promise.all([this.stateAt(campaign, {}), this.pinnedKey()]);
    return state;
  }

  /** The campaign now, after an event (`seq`) or where a turn or phase began, as this seat may see it. */
  async stateAt(campaign: string, at: { seq?: number; turn?: number; phase?: string }): Promise<CampaignView> {
    type StateAnswer = { seq: number; state: CampaignView & { heldOrders?: unknown } };
    const path = this.path(campaign, "state", at);
    const now = at.seq === undefined && at.turn === undefined;
    // The campaign now, asked again with the ETag of the last answer: while the line has not moved, the server says
    // so and sends nothing, and the state kept from then (frozen: every caller shares it) is the answer.
    const held = now && this.current?.path === path ? this.current : undefined;
    const read = now ? await this.server.readIfChanged<StateAnswer>(path, held?.etag) : undefined;
    if (read === "unchanged") return held!.state;
    const answer = read?.body ?? (await this.server.read<StateAnswer>(path));
    // The server holds no player's secrets: held orders come from this machine's secrets file (ownHeldOrders).
    const { heldOrders: _unused, ...state } = answer.state;
    if (now) {
      this.last = { seq: answer.seq, turn: state.turn };
      this.current = read?.etag === undefined ? undefined : { path, etag: read.etag, state: deepFreeze(state) };
    }
    this.sealed ??= sealedContext(state);
    return state;
  }

  async execute(campaign: string, inputs: readonly unknown[]): Promise<RemoteOutcome> {
    if (!this.last || !this.sealed) await this.state(campaign);
    const serverKey = await this.pinnedKey();
    const preparedIn = this.last!.turn;
    for (let attempt = 0, lost = 0; ;) {
      const expectedSeq = this.last!.seq;
      const sent = { line: this.line(campaign), expectedSeq, commands: [...inputs], sentAt: new Date().toISOString() };
      // Kept before it is sent: a command whose answer never comes is the seat's evidence that it acted.
      await this.receipts.update((kept) => void kept.unreceipted.push(sent));
      const answer = await this.post(campaign, expectedSeq, inputs);
      if (answer === LOST) {
        // The line the commands went to, read after the seq they expected.
        const since = await this.server.read<{ seq: number; events: SeatEvent[] }>(
          this.path(campaign, "log", { after: expectedSeq, ...(this.playBranch ? {} : { branch: undefined }) }),
        );
        if (landed(inputs, since.events)) {
          this.last = { seq: since.seq, turn: this.last!.turn };
          return { ok: true, events: since.events };
        }
        // Not written, and nothing else was either: the same request again.
        if (since.seq === expectedSeq && ++lost < LOST_RETRIES) continue;
      } else {
        const body = (answer.body ?? {}) as ServerErrorBody & { events?: SeatEvent[]; receipt?: unknown };
        const accepted = answer.status === 200 ? { seq: body.seq!, events: body.events ?? [] } : undefined;
        if (accepted || body.receipt !== undefined) {
          // Every command's actor is the token's seat (the server refuses any other): the seat the receipt must name.
          const seat = String((inputs[0] as { actor?: unknown } | undefined)?.actor);
          const check = {
            serverKey,
            campaign,
            line: sent.line,
            seat,
            expectedSeq,
            sealed: this.sealed!,
            ...(this.verify ? { verify: this.verify } : {}),
          };
          await this.keepReceipt(
            sent,
            await checkAnswer(body.receipt, { ...check, ...(accepted ? { accepted } : {}) }),
          );
        }
        if (accepted) {
          this.last = { seq: accepted.seq, turn: this.last!.turn };
          return { ok: true, events: accepted.events };
        }
        if (answer.status !== 409) return refusalOf(answer.status, body, () => refusedAccess(this.server.base, answer));
      }
      attempt++;
      await this.state(campaign);
      // A signed command is bound to the seq it was signed at (D2): sent again it would only be stale again; its
      // Table signs it again at the new seq.
      if (this.last!.turn !== preparedIn || attempt >= STALE_RETRIES || inputs.some(isSigned))
        return {
          ok: false,
          index: 0,
          refusal: {
            kind: "conflict",
            message: `the campaign moved on (now at event #${this.last!.seq}, turn ${this.last!.turn}) while the command was sent; nothing was written: give it again`,
          },
        };
    }
  }

  /** The stream commands go to: the campaign's own, or the branch played on. */
  private line(campaign: string): string {
    if (!this.playBranch || this.branch === undefined) return campaign;
    return this.branch.startsWith(`${campaign}.`) ? this.branch : `${campaign}.${this.branch}`;
  }

  /**
   * The server's key: the one pinned in the seat's receipts, which the server must still publish, or the one it
   * publishes now, pinned.
   */
  private async pinnedKey(): Promise<string> {
    if (this.serverKey) return this.serverKey;
    const { publicKey } = await this.server.read<{ publicKey: string }>("/server-key");
    const kept = await this.receipts.read();
    if (kept.serverKey !== undefined && kept.serverKey !== publicKey)
      throw new ReceiptError(
        `the server's key is now ${publicKey.slice(0, 12)}, not ${kept.serverKey.slice(0, 12)}, the one its receipts were signed with: the server is not the one this seat played on`,
      );
    if (kept.serverKey === undefined) await this.receipts.update((book) => void (book.serverKey = publicKey));
    return (this.serverKey = publicKey);
  }

  /** A receipt checked: kept, and the commands it answers no longer unreceipted. */
  private async keepReceipt(sent: SentCommands, receipt: KeptReceipt): Promise<void> {
    await this.receipts.update((kept) => {
      kept.receipts.push(receipt);
      kept.unreceipted = kept.unreceipted.filter((other) => !sameSend(other, sent));
    });
  }

  /**
   * Sends the commands once: the answer, or LOST when it never came (the connection cut, or the server failing) on a
   * connection that reconnects, after waiting the outage's wait (a ServerOfflineError once it has lasted too long).
   */
  private async post(
    campaign: string,
    expectedSeq: number,
    inputs: readonly unknown[],
  ): Promise<ServerAnswer | typeof LOST> {
    const line = this.playBranch ? {} : { branch: undefined };
    let answer: ServerAnswer;
    try {
      answer = await this.server.send("POST", this.path(campaign, "commands", line), { expectedSeq, commands: inputs });
    } catch (error) {
      if (!(error instanceof ServerError && error.status === undefined && this.server.reconnects)) throw error;
      await this.server.waitOut(error);
      return LOST;
    }
    if (!serverFailing(answer.status) || !this.server.reconnects) return answer;
    await this.server.waitOut(answer);
    return LOST;
  }

  /** The log after `after` (default: all of it), as this seat may see it. */
  async log(campaign: string, after?: number): Promise<{ seq: number; events: SeatEvent[] }> {
    return this.server.read(this.path(campaign, "log", { after }));
  }

  /** The campaign in players' words, one entry per event. */
  async timeline(campaign: string): Promise<TimelineEntry[]> {
    return (await this.server.read<{ entries: TimelineEntry[] }>(this.path(campaign, "timeline"))).entries;
  }

  /** The audit of the shared log (or of one turn of it), as this seat may see it. */
  async audit(campaign: string, turn?: number): Promise<AuditReport> {
    return this.server.read(this.path(campaign, "audit", { turn }));
  }
}

const sameSend = (a: SentCommands, b: SentCommands) =>
  a.sentAt === b.sentAt && a.line === b.line && a.expectedSeq === b.expectedSeq;

/**
 * The refusal a rejected command answers with, as the engine would give it for that command: a rule or a field of the
 * command (the server names it in the batch, `commands[0].seedHash`, and repeats that in its message). A 403 that
 * names no field of a command (a token of another campaign) is not about the command: a ServerError.
 */
function refusalOf(status: number, body: ServerErrorBody, otherwise: () => ServerError): RemoteOutcome {
  const index = body.index ?? 0;
  const inBatch = `commands[${index}].`;
  const field = body.field?.startsWith(inBatch) ? body.field.slice(inBatch.length) : body.field;
  const said = body.message ?? `refused (${status})`;
  const message = body.field && said.startsWith(`${body.field}: `) ? said.slice(body.field.length + 2) : said;
  const fieldRefusal = (named: string): RemoteOutcome => ({
    ok: false,
    index,
    refusal: { kind: "field", field: named, message },
  });
  if (status === 422 && body.rule)
    return { ok: false, index, refusal: { kind: "rule", rule: body.rule, message, ...(field ? { field } : {}) } };
  if (status === 422 || status === 400) return fieldRefusal(field ?? "command");
  if (status === 403 && field !== undefined) return fieldRefusal(field);
  throw otherwise();
}
