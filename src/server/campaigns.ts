import type { FastifyBaseLogger } from "fastify";
import { hostBattleModel } from "../forecast/battle-model.js";
import { lineStream } from "../../replays/branches.js";
import { HOST } from "../../events/common.js";
import type { StoredEvent } from "../../events/index.js";
import type { SecretKeeper } from "../client/party-secrets.js";
import { secretsOfLog } from "../client/secrets.js";
import { ChoreRefusedError, Table, type TableOptions } from "../client/table.js";
import { dueChores } from "../client/chores.js";
import type { Engine, FollowUps, Outcome } from "../engine/engine.js";
import { BranchError, DatabaseAwayError, storeFailure, type Lease } from "../log/index.js";
import { SerialQueue } from "../log/queue.js";
import { HttpError } from "./errors.js";
import { SealedSecrets } from "./sealed-secrets.js";
import { Retries } from "./retries.js";
import { from, switchMap, type Subscription } from "rxjs";

/** The first and the longest wait before the log is reopened again after a failed write, in milliseconds. */
const REOPEN_DELAYS = [250, 5_000] as const;
/** How often a server on a shared store looks for campaigns made by other processes, in milliseconds. */
const DISCOVERY_MS = 500;
/** The first and the longest wait before a host's step that failed is tried again, in milliseconds. */
const CHORE_DELAYS = [250, 30_000] as const;
/** The lease of the host's steps among the instances on one database. */
const HOST_STEPS_LEASE = "epicwar host steps";

/**
 * The campaigns a server serves: the ones in its folder when it started and those created through it since (the
 * folder's lock keeps every other writer out). A campaign id from a request is only ever looked up here, never made
 * into a path; and each campaign's commands run one at a time, so that two requests never decide on the same seq.
 */
export class Campaigns {
  private readonly known: Set<string>;
  private readonly queues = new Map<string, SerialQueue>();
  /** The host's secrets of each line, made on its first chore and kept: its secrets file is claimed once. */
  private readonly hostKeepers = new Map<string, SecretKeeper>();

  /** Each campaign's line followed for the host's chores after appends made by other processes (a shared store). */
  private readonly followed = new Map<string, Subscription>();
  /** The log's failures, each met by reopening it (followChores). */
  private failures: Subscription | undefined;
  private readonly reopening = new Retries(...REOPEN_DELAYS);
  /** Per campaign, the next try to follow it for the host's chores after the database was away. */
  private readonly followRetries = new Retries(...CHORE_DELAYS);
  /** Per line, the next try of host's steps that failed. */
  private readonly choreRetries = new Retries(...CHORE_DELAYS);
  /** Lines whose host's steps failed because the log took no writes: taken again once it is reopened. */
  private readonly afterReopen = new Set<string>();
  /**
   * Per line, a seq at which no host's chore was left due (the state a command left had none, or this server took
   * them up to there): the follower's batches that end there or before need no look, as its own appends' do not.
   */
  private readonly choresDoneAt = new Map<string, number>();
  /** The look for campaigns made elsewhere, every DISCOVERY_MS (discoverCampaigns), and whether one is under way. */
  private discovery: NodeJS.Timeout | undefined;
  private discovering = false;
  private closed = false;
  /** The server's log, for what happens between requests (given by followChores). */
  private log: FastifyBaseLogger | undefined;
  /**
   * On a shared store, the lease of the host's steps: of the instances that take them, only the one holding it does,
   * and another takes it within seconds of its holder's death. Undefined where this server has the log to itself.
   */
  private readonly hostLease: Lease | undefined;

  private constructor(
    readonly engine: Engine,
    /** The host's secrets folder: its dice seeds, which only this server holds. */
    private readonly secretsDir: string,
    known: readonly string[],
    /** Whether this server takes the host's chores: of several on one database, exactly one does. */
    private readonly hostChores: boolean,
    /** Told of the host's steps taken (events written), and of tries that met a conflict or failed. */
    private readonly onHostSteps: HostStepsCounter,
    /** The key the host's secrets are sealed with in a shared store: they are kept there rather than in secretsDir. */
    private readonly secretsKey: Buffer | undefined,
  ) {
    this.known = new Set(known);
    const { store } = engine;
    if (hostChores && store.shared && store.lease)
      this.hostLease = store.lease(HOST_STEPS_LEASE, (held) => this.hostLeaseChanged(held));
  }

  static async open(
    engine: Engine,
    secretsDir: string,
    hostChores = true,
    onHostSteps: HostStepsCounter = () => {},
    secretsKey?: Buffer,
  ): Promise<Campaigns> {
    return new Campaigns(engine, secretsDir, await engine.listCampaigns(), hostChores, onHostSteps, secretsKey);
  }

  /**
   * Told of each campaign whose steps may be due beyond the host's (the computer's): after another process's append,
   * on taking the lease, on finding a campaign made elsewhere.
   */
  onStepsDue: (campaign: string) => void = () => {};

  /** Whether this server takes the host's steps now: it does, and it holds their lease where there is one. */
  get takesHostSteps(): boolean {
    return this.hostChores && (this.hostLease?.held ?? true);
  }

  /** Come to hold the lease of the host's steps: every campaign's due steps are taken; or lost it. */
  private hostLeaseChanged(held: boolean): void {
    const log = this.log;
    this.onHostSteps(held ? "lease-taken" : "lease-lost", 1);
    if (!log) return;
    if (!held) {
      log.warn("this instance no longer takes the host's steps: its lease's connection to the database was lost");
      return;
    }
    log.info("this instance takes the host's steps of every campaign on the database (it holds their lease)");
    for (const stream of this.known) {
      void this.retakeHostChores(stream, log);
      this.onStepsDue(stream);
    }
  }

  /**
   * Keeps the host's chores going between requests. A failed write fails the log (a full disk): it is reopened, with
   * backoff, until it opens, and every campaign's due chores are then taken (a chore that failed for another reason,
   * such as its secrets file, is tried again by itself, with backoff). On a log other processes append to (several
   * servers on one PostgreSQL), a command taken by another server can leave the host's chores due, and only the
   * server with the host's secrets takes them: it follows every campaign it serves and looks for due chores after
   * each batch of events, whoever appended it.
   */
  followChores(log: FastifyBaseLogger): void {
    this.log = log;
    const { store } = this.engine;
    this.failures = store.failures$.subscribe((failure) => {
      log.error({ err: failure }, `${failure.message}; reopening it`);
      this.reopenLog(log);
    });
    if (store.failure) this.reopenLog(log);
    if (!this.hostChores || !store.shared) return;
    for (const campaign of this.known) this.followChoresOf(campaign, log);
    this.hostLease?.start();
  }

  /** Reopens the failed log once its next delay has passed, and again after that until it opens. */
  private reopenLog(log: FastifyBaseLogger): void {
    this.reopening.schedule("log", () => {
      void this.engine.store.reopen().then(
        () => {
          this.reopening.reset("log");
          log.info(`the log at ${this.engine.store.location} is reopened: it takes writes again`);
          const lines = new Set([...this.known, ...this.afterReopen]);
          this.afterReopen.clear();
          for (const stream of lines) void this.retakeHostChores(stream, log);
        },
        (error: unknown) => {
          log.error({ err: error }, `${(error as Error).message}; trying again`);
          this.reopenLog(log);
        },
      );
    });
  }

  private followChoresOf(campaign: string, log: FastifyBaseLogger): void {
    if (this.followed.has(campaign)) return;
    const { store } = this.engine;
    // From the head on: what is already stored had its chores taken when the server started, or by the command.
    const appended = from(store.head(campaign)).pipe(switchMap((head) => store.batches$(campaign, head.seq + 1)));
    const subscription = appended.subscribe({
      next: (batch) => {
        this.followRetries.reset(campaign);
        const seq = batch.at(-1)!.seq;
        void this.serialize(campaign, async () => {
          if (seq > (this.choresDoneAt.get(campaign) ?? 0)) await this.takeHostChores(campaign, log);
        });
        this.onStepsDue(campaign);
      },
      error: (error: unknown) => {
        this.followed.delete(campaign);
        if (!(storeFailure(error) instanceof DatabaseAwayError)) {
          log.error({ campaign, err: error }, `following ${campaign} for the host's chores failed`);
          return;
        }
        // The database went away before the campaign was followed: followed again, and its due chores taken, once
        // it may be back.
        log.warn({ campaign, err: error }, `following ${campaign} for the host's chores waits for the database`);
        this.followRetries.schedule(campaign, () => {
          this.followChoresOf(campaign, log);
          void this.retakeHostChores(campaign, log);
        });
      },
    });
    this.followed.set(campaign, subscription);
  }

  /**
   * On a store other processes write to, looks for campaigns made elsewhere (another server's POST /campaigns,
   * `epicwar new --store`) every DISCOVERY_MS, and serves each from then on: its due host's chores are taken, and
   * `found` is told of it (to seat it). Call after followChores.
   */
  discoverCampaigns(found: (campaign: string) => Promise<void>): void {
    if (!this.engine.store.shared) return;
    this.discovery = setInterval(() => void this.discover(found), DISCOVERY_MS);
  }

  private async discover(found: (campaign: string) => Promise<void>): Promise<void> {
    const log = this.log;
    if (this.discovering || !log) return;
    this.discovering = true;
    try {
      for (const campaign of await this.engine.listCampaigns()) {
        if (this.known.has(campaign)) continue;
        // After any creation of it through this server, which adds it itself.
        const added = await this.serialize(campaign, async () => {
          if (this.known.has(campaign)) return false;
          this.add(campaign, log);
          await this.takeHostChores(campaign, log);
          return true;
        });
        if (!added) continue;
        log.info({ campaign }, `serving ${campaign}, made by another process`);
        this.onStepsDue(campaign);
        await found(campaign);
      }
    } catch (error) {
      // The database away: the next look tries again. A look the server's close cut short is no failure.
      if (!this.closed && !(storeFailure(error) instanceof DatabaseAwayError))
        log.error({ err: error }, `looking for campaigns made elsewhere failed: ${(error as Error).message}`);
    } finally {
      this.discovering = false;
    }
  }

  /** Stops following the campaigns' lines, and trying again what failed. */
  close(): void {
    this.closed = true;
    clearInterval(this.discovery);
    for (const subscription of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
    this.failures?.unsubscribe();
    this.reopening.close();
    this.choreRetries.close();
    this.followRetries.close();
    void this.hostLease?.close();
  }

  ids(): string[] {
    return [...this.known].sort();
  }

  add(campaign: string, log: FastifyBaseLogger): void {
    this.known.add(campaign);
    if (this.followed.size > 0 || (this.hostChores && this.engine.store.shared)) this.followChoresOf(campaign, log);
  }

  /** 404 for a campaign this server does not serve. */
  require(campaign: string): void {
    if (!this.known.has(campaign)) throw new HttpError("not-found", `no campaign "${campaign}" on this server`);
  }

  /** The stream of a line of the campaign: its own ("main", or no branch named) or one of its branches; else 404. */
  async line(campaign: string, branch: string | undefined): Promise<string> {
    this.require(campaign);
    if (branch === undefined) return campaign;
    try {
      return await lineStream(this.engine.store, campaign, branch);
    } catch (error) {
      if (error instanceof BranchError) throw new HttpError("not-found", error.message);
      throw error;
    }
  }

  /** Runs work that writes to a campaign after every write queued before it has finished. */
  serialize<T>(campaign: string, work: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(campaign);
    if (!queue) this.queues.set(campaign, (queue = new SerialQueue()));
    return queue.run(work);
  }

  /**
   * The host's chores a seat's command makes due, taken on the state it leaves before it is written, so that they are
   * appended in its batch (Engine.execute's followUps): one flush to disk for both. Where this server takes no host's
   * steps, or the log takes no writes, none is staged; a chore refused on the staged state is left to takeHostChores,
   * which takes it on the state after the append, and reports it if it fails again.
   */
  hostChoresAfter(stream: string, log: FastifyBaseLogger): FollowUps {
    return async (staged) => {
      if (!this.takesHostSteps || this.engine.store.failure) return;
      if (dueChores(await staged.state(), HOST_PARTY).length === 0) return;
      try {
        await new Table(staged, stream, this.hostTableOptions(stream)).takeChores();
      } catch (error) {
        log.info(
          { stream },
          `the host's chore in ${stream} waits for the command's append: ${(error as Error).message}`,
        );
      }
    };
  }

  /**
   * Takes the host's chores that are due (its dice seeds, initiative and scouting rolls, starting and ending turns):
   * the server's part of the protocol; the players' chores are their clients'. A chore that fails is logged and tried
   * again, with backoff, until it lands (once the log is reopened, when it failed on the log's write); the command
   * before it stands. Given the state a command produced, nothing is read when no chore of the host's is due in it
   * (dueChores is pure). The events the chores wrote, in order: those of a chore that failed after others are kept.
   */
  async takeHostChores(stream: string, log: FastifyBaseLogger, after?: Outcome & { ok: true }): Promise<StoredEvent[]> {
    const written: StoredEvent[] = [];
    if (!this.takesHostSteps) return written;
    // The host's steps the command's own batch took (hostChoresAfter).
    if (after?.followUps) this.onHostSteps("taken", after.followUps);
    if (after && dueChores(after.state, HOST_PARTY).length === 0) {
      this.choresDone(stream, after.state.seq);
      return written;
    }
    if (this.engine.store.failure) {
      // The state may lack the write that failed, which the disk may yet hold: a chore decided on it could keep a
      // seed over the one that write commits to. The chores wait for the reopen, which reads the disk.
      this.afterReopen.add(stream);
      return written;
    }
    try {
      const host = new Table(this.engine, stream, this.hostTableOptions(stream));
      await host.takeChores((events) => written.push(...events));
      this.choreRetries.reset(stream);
      // The Table takes chores until none is due: none is, from its last event on.
      if (written.length > 0) this.choresDone(stream, written.at(-1)!.seq);
    } catch (error) {
      // Another instance's command appended between this step's read and its append: normal play on a shared
      // database, tried again at once, so no alert's business.
      const conflict = error instanceof ChoreRefusedError && error.refusal?.kind === "conflict";
      this.onHostSteps(conflict ? "conflict" : "failed", 1);
      const message = `the host's chore in ${stream} ${conflict ? "met another writer" : "failed"}: ${(error as Error).message}`;
      if (conflict) log.info({ stream }, message);
      else log.error({ stream, err: error }, message);
      this.retryHostChores(stream, error, this.log ?? log);
    } finally {
      this.onHostSteps("taken", written.length);
    }
    return written;
  }

  private choresDone(stream: string, seq: number): void {
    this.choresDoneAt.set(stream, Math.max(seq, this.choresDoneAt.get(stream) ?? 0));
  }

  /** A line's host's chores failed: taken again once the log is reopened, when that is why, else after a delay. */
  private retryHostChores(stream: string, error: unknown, log: FastifyBaseLogger): void {
    if (storeFailure(error) && this.engine.store.failure) this.afterReopen.add(stream);
    else this.choreRetries.schedule(stream, () => void this.retakeHostChores(stream, log));
  }

  /** Takes a line's due host's chores between requests, after the writes queued on its campaign. */
  private async retakeHostChores(stream: string, log: FastifyBaseLogger): Promise<void> {
    try {
      const campaign = (await this.engine.store.branch(stream))?.root ?? stream;
      await this.serialize(campaign, () => this.takeHostChores(stream, log));
    } catch (error) {
      // The line could not even be looked up (the log closed for a reopen, say).
      log.error({ stream, err: error }, `the host's chores in ${stream} wait: ${(error as Error).message}`);
      this.retryHostChores(stream, error, log);
    }
  }

  /**
   * The host's secrets of a line (a campaign's stream or a branch's): sealed in the shared store where a secrets key
   * is given, so that every instance holding the key can take the host's steps; else in this server's folder.
   */
  hostSecrets(stream: string): SecretKeeper {
    return this.sealedSecrets(stream) ?? secretsOfLog(this.secretsDir, stream, this.engine.store);
  }

  /** The parties' secrets of a line sealed in the shared store, where a secrets key is given; else undefined. */
  sealedSecrets(stream: string): SealedSecrets | undefined {
    const { sealedTexts } = this.engine.store;
    return this.secretsKey && sealedTexts ? new SealedSecrets(sealedTexts, this.secretsKey, stream) : undefined;
  }

  /** The host's party at a line, its secrets (made once per line) and its battle model. */
  private hostTableOptions(stream: string): TableOptions {
    let secrets = this.hostKeepers.get(stream);
    if (!secrets) this.hostKeepers.set(stream, (secrets = this.hostSecrets(stream)));
    return { parties: HOST_PARTY, secrets, battleModel: hostBattleModel };
  }
}

const HOST_PARTY: ReadonlySet<string> = new Set([HOST]);

/** Counts the host's steps: `taken` with the events written, `conflict` or `failed` with the tries. */
export type HostStepsCounter = (
  result: "taken" | "conflict" | "failed" | "lease-taken" | "lease-lost",
  count: number,
) => void;
