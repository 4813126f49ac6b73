import { signal } from "@preact/signals";
import type { Order } from "../../events/common.js";
import { HOST } from "../../events/common.js";
import { PrepareError } from "../client/prepare.js";
import { RemoteCampaign, type RemoteOutcome, type SeatEvent } from "../client/remote.js";
import { ServerError, type ServerConnection } from "../client/server.js";
import { Table, ChoreRefusedError } from "../client/table.js";
import type { Refusal } from "../rules/refusal.js";
import type { WaitingOn } from "../rules/waiting-on.js";
import { ownHeldOrders, type CampaignView } from "../views.js";
import { feedLine } from "../words/events.js";
import type { BrowserSecrets } from "./idb-secrets.js";
import type { SeatRef } from "./session.js";

/** What a command the page sent came to: nothing (accepted), or why it was refused. */
export type Verdict = Refusal | undefined;

/**
 * The campaign as this seat plays it in the page: the seat's view, kept up to date from the live feed, and the
 * commands it gives. Commands go through the same Table as the CLI's (src/client/table.ts): orders are committed in
 * the browser, their secrets kept in IndexedDB first, and the seat's chores (seeds, the reveals due at a battle and
 * at the end of the Action phase) are taken as soon as they fall due. The host's chores are the server's.
 */
export class Game {
  readonly view = signal<CampaignView | null>(null);
  readonly waiting = signal<WaitingOn | null>(null);
  readonly heldOrders = signal<Record<string, Order>>({});
  readonly problem = signal<string | null>(null);
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
  private readonly table: Table<CampaignView, RemoteOutcome>;
  /** Work on the campaign (refreshes, chores, commands) runs one piece at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private refreshPending = false;

  constructor(
    readonly server: ServerConnection,
    readonly seat: SeatRef,
    readonly secrets: BrowserSecrets,
    /** A branch of the campaign this page plays on instead of its own line (a what-if). */
    readonly branch?: string,
  ) {
    this.remote = new RemoteCampaign(server, branch, true);
    const parties = new Set(seat.seat === HOST ? [] : [seat.seat]);
    this.table = new Table(this.remote, seat.campaign, {
      parties,
      secrets,
      chores: seat.seat !== HOST,
      // The server signs the organiser's commands with the host's key, which it holds with the host's seeds (D2).
      signing: seat.seat !== HOST,
      // A branch's stream is the campaign's id, a dot and the branch's name (docs/storage.md): what signatures name.
      ...(branch === undefined ? {} : { line: `${seat.campaign}.${branch}` }),
    });
  }

  get player(): string | undefined {
    return this.seat.seat === HOST ? undefined : this.seat.seat;
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Reads the campaign again (coalescing the refreshes asked for while one waits), then takes the chores due. */
  refresh(): Promise<void> {
    if (this.refreshPending) return this.queue.then(() => {});
    this.refreshPending = true;
    return this.run(async () => {
      this.refreshPending = false;
      try {
        await this.table.takeChores();
        await this.load();
        this.problem.value = null;
      } catch (error) {
        this.problem.value = messageOf(error);
      }
    });
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

  /** Prepares and sends one command as the seat gives it; the refusal, if the engine refuses it. */
  submit(command: Record<string, unknown>): Promise<Verdict> {
    return this.run(async () => {
      let verdict: Verdict;
      try {
        const outcome = await this.table.submit({ actor: this.seat.seat, ...command });
        verdict = outcome.ok ? undefined : outcome.refusal;
      } catch (error) {
        if (!(error instanceof PrepareError || error instanceof ChoreRefusedError)) throw error;
        verdict = { kind: "field", field: "command", message: error.message };
      }
      await this.load();
      return verdict;
    });
  }

  /** `?branch=NAME` for a branch's routes; nothing for the campaign's own line. */
  lineQuery(): string {
    return this.branch === undefined ? "" : `?${new URLSearchParams({ branch: this.branch })}`;
  }

  /** Follows the live feed: every event the seat may see brings a refresh. EventSource reconnects by itself. */
  follow(): () => void {
    const feed = new EventSource(`/campaigns/${encodeURIComponent(this.seat.campaign)}/feed${this.lineQuery()}`);
    let last = this.view.value?.seq ?? 0;
    feed.addEventListener("event", (message) => {
      const seq = Number((message as MessageEvent).lastEventId);
      const event = JSON.parse((message as MessageEvent<string>).data) as SeatEvent;
      const words = wordsOf(event);
      this.recent.value = [...this.recent.value, words].slice(-RECENT);
      if (isClose(event)) this.closes.value = [...this.closes.value, words];
      if (seq > last) {
        last = seq;
        void this.refresh();
      }
    });
    feed.addEventListener("forecast", (message) => {
      const progress = JSON.parse((message as MessageEvent<string>).data) as ForecastProgress;
      this.forecastProgress.value = { ...this.forecastProgress.value, [progress.line]: progress };
    });
    return () => feed.close();
  }
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

function messageOf(error: unknown): string {
  return error instanceof ServerError || error instanceof Error ? error.message : String(error);
}
