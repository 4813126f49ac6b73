import { signal } from "@preact/signals";
import type { Order } from "../../events/common.js";
import { HOST } from "../../events/common.js";
import { pruneUncommittedOrders } from "../client/held-orders.js";
import { SeedKeptError } from "../client/party-secrets.js";
import { PrepareError } from "../client/prepare.js";
import { RemoteCampaign, type RemoteOutcome, type SeatEvent } from "../client/remote.js";
import type { ServerConnection } from "../client/server.js";
import { Table } from "../client/table.js";
import { newDeviceKey } from "../crypto/signatures.js";
import type { Refusal } from "../rules/refusal.js";
import type { WaitingOn } from "../rules/waiting-on.js";
import { ownHeldOrders, type CampaignView } from "../views/view.js";
import { feedLine } from "../words/events.js";
import { problemWords, type Connection } from "./connection.js";
import { lineRecords } from "./idb.js";
import { BrowserReceiptBook } from "./idb-receipts.js";
import type { BrowserSecrets } from "./idb-secrets.js";
import { SeatLock } from "./seat-lock.js";
import type { SeatRef } from "./session.js";

/**
 * What a command the page sent came to: nothing (accepted), why it was refused, or that no answer came (the server
 * down or restarting: it may or may not have been written).
 */
export type Verdict = Refusal | { kind: "unanswered"; message: string } | undefined;

/** A command's refusal (or its missing answer), kept on the page until the player has read it. */
export interface Notice {
  id: number;
  /** The command, in short: its type and the army or battle it is about. */
  what: string;
  verdict: NonNullable<Verdict>;
}

/**
 * The campaign as this seat plays it in the page: the seat's view, kept up to date from the live feed, and the
 * commands it gives. Commands go through the same Table as the CLI's (src/client/table.ts): orders are committed in
 * the browser, their secrets kept in IndexedDB first, and the seat's chores (seeds, the reveals due at a battle and
 * at the end of the Action phase) are taken as soon as they fall due, by one tab of the seat at a time (SeatLock).
 * The host's chores are the server's. The view is always read first, so that whatever goes wrong is shown on it.
 */
export class Game {
  readonly view = signal<CampaignView | null>(null);
  readonly waiting = signal<WaitingOn | null>(null);
  readonly heldOrders = signal<Record<string, Order>>({});
  readonly problem = signal<string | null>(null);
  /** Refused commands not dismissed yet, oldest first: a refusal stays in sight even when its form is gone. */
  readonly notices = signal<Notice[]>([]);
  /** The latest events of the feed in players' words, newest last (the same words as `epicwar watch`). */
  readonly recent = signal<string[]>([]);
  /**
   * The stalls claimed and the Action phases closed before every army was activated, in players' words: who was
   * waited on (T5 stall, O2 deadline), which the organiser's panel shows. The feed brings the line's whole history
   * when the page opens, so these are all of them.
   */
  readonly closes = signal<string[]>([]);
  /** How far the seat's forecasts are, from the feed's `forecast` messages: runs done of runs asked, by line. */
  readonly forecastProgress = signal<Record<string, ForecastProgress>>({});
  /** Bumped after every refresh: panels that read the server themselves (history) follow it. */
  readonly version = signal(0);
  readonly remote: RemoteCampaign;
  /** The stream this page's commands are appended to. */
  readonly line: string;
  readonly lock: SeatLock;
  private readonly commands: Table<CampaignView, RemoteOutcome>;
  private readonly chores: Table<CampaignView, RemoteOutcome>;
  /** Work on the campaign (refreshes, chores, commands) runs one piece at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private refreshPending = false;
  private noticesMade = 0;
  /** The refresh that is due after the server did not answer, and how many have been tried in a row. */
  private retry: { timer?: ReturnType<typeof setTimeout>; tries: number } = { tries: 0 };
  private stopped = false;

  constructor(
    readonly server: ServerConnection,
    readonly seat: SeatRef,
    readonly secrets: BrowserSecrets,
    readonly connection: Connection,
    /** A branch of the campaign this page plays on instead of its own line (a what-if). */
    readonly branch?: string,
  ) {
    // A branch's stream is the campaign's id, a dot and the branch's name (docs/storage.md): what signatures and
    // receipts name.
    this.line = branch === undefined ? seat.campaign : `${seat.campaign}.${branch}`;
    // The seat's receipts are kept in this browser, per line, and outlast a reload (docs/signatures.md).
    const receipts = new BrowserReceiptBook(lineRecords(seat.campaign, branch), seat.seat);
    this.remote = new RemoteCampaign(server, branch, true, receipts);
    const parties = new Set(seat.seat === HOST ? [] : [seat.seat]);
    // Every seat's page signs its commands with a key made in this browser, the organiser's too (D2), and made
    // non-extractable: it never leaves this browser (docs/web.md).
    const signing = { newKey: () => newDeviceKey(), line: this.line };
    this.commands = new Table(this.remote, seat.campaign, { parties, secrets, chores: false, ...signing });
    this.chores = new Table(this.remote, seat.campaign, { parties, secrets, chores: seat.seat !== HOST, ...signing });
    this.lock = new SeatLock(`epicwar ${seat.campaign}${branch === undefined ? "" : `~${branch}`}/${seat.seat}`);
  }

  get player(): string | undefined {
    return this.seat.seat === HOST ? undefined : this.seat.seat;
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Reads the campaign again (coalescing the refreshes asked for while one waits), then, in the tab that holds the
   * seat's chores, takes those due. A problem is shown over the view; a server that did not answer is asked again.
   */
  refresh(): Promise<void> {
    if (this.refreshPending) return this.queue.then(() => {});
    this.refreshPending = true;
    return this.run(async () => {
      this.refreshPending = false;
      let took = false;
      try {
        await this.load();
        if (this.lock.chores.value) {
          await this.lock.alone(() => this.chores.takeChores(() => (took = true)));
          if (took) await this.load();
        }
        this.problem.value = null;
        this.retry.tries = 0;
      } catch (error) {
        this.problem.value = problemWords(error);
        if (took) await this.load().catch(() => {});
        if (this.connection.offline) this.refreshLater();
      }
    });
  }

  /** Asks again after a refresh the server did not answer: soon at first, then every few seconds, for an hour. */
  private refreshLater(): void {
    if (this.stopped || this.retry.timer !== undefined) return;
    if (this.retry.tries >= RETRIES) {
      this.problem.value = `${this.problem.value ?? ""} The page stopped asking after an hour: reload it to try again.`;
      return;
    }
    const delay = Math.min(RETRY_LONGEST, RETRY_FIRST * 2 ** this.retry.tries++);
    this.retry.timer = setTimeout(() => {
      this.retry.timer = undefined;
      void this.refresh();
    }, delay);
  }

  private async load(): Promise<void> {
    const { campaign } = this.seat;
    const [view, waiting] = await Promise.all([
      this.remote.state(campaign),
      this.server.read<WaitingOn>(`/campaigns/${encodeURIComponent(campaign)}/waiting${this.lineQuery()}`),
    ]);
    this.heldOrders.value = this.player ? await ownHeldOrders(view, this.player, this.secrets) : {};
    this.view.value = view;
    this.waiting.value = waiting;
    this.version.value++;
  }

  /**
   * Prepares and sends one command as the seat gives it, alone among the seat's tabs; the refusal, if the engine
   * refuses it, or that no answer came, once the view has been read again. Never throws: a control that waits on it is
   * always given back. A refusal is also kept among the notices until dismissed; the secret kept for a refused command
   * is dropped.
   */
  submit(command: Record<string, unknown>): Promise<Verdict> {
    const verdict = this.run(async () => {
      let verdict: Verdict;
      try {
        verdict = await this.lock.alone(() => this.send(command));
      } catch (error) {
        verdict = { kind: "unanswered", message: problemWords(error) };
      }
      if (verdict)
        this.notices.value = [...this.notices.value, { id: ++this.noticesMade, what: whatOf(command), verdict }];
      return verdict;
    });
    // The view after the command, and the chores it made due: a refresh queued before the command would read neither.
    this.refreshPending = false;
    const refreshed = this.refresh();
    return verdict.then(async (given) => {
      await refreshed;
      return given;
    });
  }

  private async send(command: Record<string, unknown>): Promise<Verdict> {
    try {
      const outcome = await this.commands.submit({ actor: this.seat.seat, ...command });
      if (outcome.ok) return undefined;
      if (this.player)
        await pruneUncommittedOrders(await this.remote.state(this.seat.campaign), this.secrets, this.player);
      return outcome.refusal;
    } catch (error) {
      if (error instanceof PrepareError || error instanceof SeedKeptError)
        return { kind: "field", field: "command", message: error.message };
      throw error;
    }
  }

  /**
   * Shows a problem a panel met reading the server (the history, the branches): over the view, like the page's own;
   * the next refresh that works clears it.
   */
  readonly report = (error: unknown): void => {
    this.problem.value = problemWords(error);
    if (this.connection.offline) this.refreshLater();
  };

  /** The player has read a notice. */
  dismiss(id: number): void {
    this.notices.value = this.notices.value.filter((notice) => notice.id !== id);
  }

  /** `?branch=NAME` for a branch's routes; nothing for the campaign's own line. */
  lineQuery(): string {
    return this.branch === undefined ? "" : `?${new URLSearchParams({ branch: this.branch })}`;
  }

  /**
   * Follows the live feed while the page plays this line: every event the seat may see brings a refresh, and so does
   * the feed's every (re)connection, which catches up on what an outage hid. EventSource reconnects by itself after
   * a network error (sending the last event's id); a feed it gave up on is opened again. The tab also waits for the
   * seat's chores. The function returned stops all that.
   */
  follow(): () => void {
    const releaseChores = this.lock.claimChores(() => void this.refresh());
    const path = `/campaigns/${encodeURIComponent(this.seat.campaign)}/feed${this.lineQuery()}`;
    let seen = 0;
    let feed: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      feed = new EventSource(path);
      feed.addEventListener("open", () => {
        this.connection.reached();
        void this.refresh();
      });
      feed.addEventListener("error", () => {
        if (this.stopped) return;
        this.connection.lost();
        if (feed?.readyState === EventSource.CLOSED && reopen === undefined)
          reopen = setTimeout(() => {
            reopen = undefined;
            if (!this.stopped) open();
          }, RETRY_LONGEST);
      });
      feed.addEventListener("event", (message) => {
        const seq = Number((message as MessageEvent).lastEventId);
        // A feed opened again without the last event's id sends the line's history again: each event counts once.
        if (seq <= seen) return;
        seen = seq;
        const event = JSON.parse((message as MessageEvent<string>).data) as SeatEvent;
        const words = wordsOf(event);
        this.recent.value = [...this.recent.value, words].slice(-RECENT);
        if (isClose(event)) this.closes.value = [...this.closes.value, words];
        if (seq > (this.view.value?.seq ?? 0)) void this.refresh();
      });
      feed.addEventListener("forecast", (message) => {
        const progress = JSON.parse((message as MessageEvent<string>).data) as ForecastProgress;
        this.forecastProgress.value = { ...this.forecastProgress.value, [progress.line]: progress };
      });
    };
    this.stopped = false;
    open();
    return () => {
      this.stopped = true;
      feed?.close();
      clearTimeout(reopen);
      clearTimeout(this.retry.timer);
      this.retry.timer = undefined;
      releaseChores();
    };
  }
}

/** The first refresh after the server did not answer is asked for after this long (ms), each next after twice as long. */
const RETRY_FIRST = 500;
/** The longest wait between two refreshes, or before a feed given up on is opened again (ms). */
const RETRY_LONGEST = 5_000;
/** How many refreshes in a row the page asks for while the server does not answer: a little over an hour's worth. */
const RETRIES = 730;

/** A command in short, as a notice names it: its type and the army, battle or scouting it is about. */
function whatOf(command: Record<string, unknown>): string {
  const about = ["army", "battle", "scouting"].map((name) => command[name]).find((value) => typeof value === "string");
  return `${String(command["type"])}${about === undefined ? "" : ` ${String(about)}`}`;
}

/** How many of the feed's latest events the page lists. */
const RECENT = 12;

/** A forecast's progress as the server tells the seat's feeds (src/server/routes-forecast.ts). */
export interface ForecastProgress {
  request: string;
  line: string;
  runs: number;
  of: number;
}

/** T5, O2: a stall claimed, or an Action phase closed before every army was activated (who was waited on). */
const isClose = (event: SeatEvent) =>
  event.type === "StallClaimed" ||
  event.type === "ActionDeadlineEnforced" ||
  (event.type === "ActionPhaseEnded" && (event.data as { notActivated?: unknown }).notActivated !== undefined);

/** An event in players' words; its type alone if the words cannot be made. */
function wordsOf(event: SeatEvent): string {
  try {
    return feedLine(event as Parameters<typeof feedLine>[0]);
  } catch {
    return `#${event.seq} ${event.type}`;
  }
}
