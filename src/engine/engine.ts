import type { CampaignState } from "../../projections/state.js";
import type { StoredEvent } from "../../events/index.js";
import type { Command } from "./command-schemas.js";
import { decideBatch } from "./decide-batch.js";
import { verifySignature } from "../crypto/verify-node.js";
import { LiveCampaign } from "./live.js";
import { StagedLine } from "./staged-line.js";
import { AppendConflictError, EventStore, storeFailure, type BranchMeta, type StoreOptions } from "../log/index.js";
import type { Clock, CommandHandler, Outcome, Refused } from "./handler.js";

export type { Answer, Clock, CommandHandler, Outcome, Refused } from "./handler.js";

/**
 * Steps that follow from accepted commands, taken on a StagedLine over the state they leave before anything is
 * written: their events are appended in the commands' batch, after theirs.
 */
export type FollowUps = (staged: StagedLine) => Promise<void>;

/** A batch whose write is under way (AppendOptions.whileWriting). */
export interface BatchInWriting {
  /** Its events as they will be stored: the commands', then the follow-ups'. */
  stored: readonly StoredEvent[];
  /** How many of them, at the end, are the follow-ups'. */
  followUps: number;
}

/** Nothing it works out may be kept or sent unless execute answers the batch's very events. */
export type WhileWriting = (batch: BatchInWriting) => void;

export interface EngineOptions extends StoreOptions {
  /** Where recorded times come from; injected so that tests and replays are repeatable. */
  clock?: Clock;
}

/**
 * The command handler: the one place that does I/O. It schema-checks a command, decides it against the live state,
 * stamps the resulting events with actor and time, and appends them in one batch at the seq it decided on.
 *
 * A campaign or a branch is one stream to it: the state of a branch is folded from its line (the parent's events up
 * to the fork, then its own), and a command on a branch appends to the branch's stream only. The live state starts
 * from the line's context snapshot where the chain bears it out (its seq's hash the line's), and folds the events
 * after it (live.ts).
 */
export class Engine implements CommandHandler {
  private readonly campaigns = new Map<string, LiveCampaign>();

  private constructor(
    readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  static async open(location: string, options: EngineOptions = {}): Promise<Engine> {
    const store = await EventStore.open(location, options);
    return new Engine(store, options.clock ?? (() => new Date()));
  }

  async close(): Promise<void> {
    for (const live of this.campaigns.values()) live.close();
    this.campaigns.clear();
    await this.store.close();
  }

  /** The campaigns this folder holds: the streams that are not branches of another. */
  async listCampaigns(): Promise<string[]> {
    const branches = new Set((await this.store.branches()).map((branch) => branch.stream));
    return (await this.store.streams()).filter((stream) => !branches.has(stream));
  }

  /** The branches this folder holds (of every campaign): see replays/branches.ts. */
  listBranches(): Promise<BranchMeta[]> {
    return this.store.branches();
  }

  /**
   * The campaign's live state; made again when a read of it met the log closed for a reopen after a failed write
   * (a log broken outside the engine fails it for good, with the error that says where).
   */
  private live(campaign: string): LiveCampaign {
    let live = this.campaigns.get(campaign);
    if (!live || storeFailure(live.failure)) {
      live = new LiveCampaign(this.store, campaign);
      this.campaigns.set(campaign, live);
    }
    return live;
  }

  /** The campaign's state with every stored event folded in. */
  async state(campaign: string): Promise<CampaignState> {
    const head = await this.store.head(campaign);
    return this.live(campaign).at(head.seq);
  }

  /**
   * Decides commands one after another on the campaign and appends all their events in one atomic batch:
   * if any is refused, nothing is written. Each input is schema-checked before any rule runs.
   *
   * With `expectedSeq` (the seq its giver decided on), the commands are decided only on the state at that seq and
   * written only if the log's head is still there when they are appended (the store checks it in the append's own
   * batch or transaction): a log that has moved on, by this process or by another on a shared store, is a conflict.
   *
   * With `followUps`, the steps they take on the state the commands leave (the server's host's steps) are appended in
   * the same batch: one write, and one flush to disk, for a command and the steps it made due. With `whileWriting`,
   * the caller works on the batch while it is flushed (WhileWriting).
   *
   * With `stateAsDecided`, the outcome's state is the one the batch was decided to leave, answered without waiting for
   * the live state to fold the batch from the log (a server answers before that fold): the same state, but its
   * objects' keys stand in the order the rules made them (a battle's conditions, a volley's units), not the log's,
   * so it is for looking things up in, not for iterating over or writing out.
   */
  async execute(
    campaign: string,
    inputs: readonly unknown[],
    options: {
      expectedSeq?: number;
      followUps?: FollowUps;
      whileWriting?: WhileWriting;
      stateAsDecided?: boolean;
    } = {},
  ): Promise<Outcome> {
    const state = await this.state(campaign);
    const expectedSeq = options.expectedSeq ?? state.seq;
    if (state.seq !== expectedSeq) return conflict(new AppendConflictError(campaign, expectedSeq, state.seq));
    const decision = decideBatch(state, inputs, this.clock, { line: campaign, verify: verifySignature });
    if (!decision.ok) return decision;
    const staged = options.followUps && new StagedLine(decision.state, campaign, this.clock);
    if (staged) await options.followUps!(staged);
    const followUps = staged?.events ?? [];
    const { whileWriting } = options;
    try {
      const stored = await this.store.append(
        campaign,
        expectedSeq,
        [...decision.events, ...followUps],
        whileWriting && {
          whileWriting: (stored) => whileWriting({ stored, followUps: followUps.length }),
        },
      );
      return {
        ok: true,
        events: stored,
        state: options.stateAsDecided
          ? await (staged?.state() ?? decision.state)
          : await this.live(campaign).at(expectedSeq + stored.length),
        ...(staged ? { followUps: followUps.length } : {}),
      };
    } catch (error) {
      if (error instanceof AppendConflictError) return conflict(error);
      throw error;
    }
  }

  /** Creates a campaign from its set-up commands (CreateCampaign first), all or nothing. */
  async create(commands: readonly Command[]): Promise<Outcome> {
    const first = commands[0];
    const campaign = first && first.type === "CreateCampaign" ? first.campaign : undefined;
    if (!campaign)
      return {
        ok: false,
        index: 0,
        refusal: { kind: "field", field: "type", message: "a set-up starts with CreateCampaign" },
      };
    return this.execute(campaign, commands);
  }
}

const conflict = (error: AppendConflictError): Refused => ({
  ok: false,
  index: 0,
  refusal: { kind: "conflict", message: error.message },
});
