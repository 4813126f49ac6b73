import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyBaseLogger } from "fastify";
import { from, switchMap, type Subscription } from "rxjs";
import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { replaceDurably } from "../client/secrets.js";
import type { Engine } from "../engine/engine.js";
import { SerialQueue } from "../log/queue.js";
import { waitingOn } from "../rules/waiting-on.js";
import { owedByHand } from "../words/owed.js";

/** A webhook's body: generic JSON, or the message a Discord or Slack channel's incoming webhook takes. */
export const WebhookFormat = Type.Union([Type.Literal("json"), Type.Literal("discord"), Type.Literal("slack")]);
export const Webhook = Type.Object(
  {
    url: Type.String({ pattern: "^https?://", minLength: 8, maxLength: 2000 }),
    format: WebhookFormat,
  },
  { additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;
export const Webhooks = Type.Array(Webhook, { maxItems: 10 });

/**
 * What a campaign's webhooks are told: who the campaign waits on (by hand), a result that awaits confirmation, a turn
 * begun. Only what every seat may see: names, a turn, a battle's id; never an order, a seed, a token or a strength.
 */
export interface Notification {
  campaign: string;
  name: string;
  kind: "waiting-on" | "result-awaits-confirmation" | "turn-began";
  turn: number;
  text: string;
  /** waiting-on: each party waited on, with what it is to do. */
  waitingOn?: Array<{ party: string; name: string; todo: string[] }>;
  battle?: string;
}

/** How long one delivery may take before it is given up (ms): a slow channel never holds the server. */
const DELIVERY_TIMEOUT = 5_000;

/**
 * The organiser's webhooks per campaign (docs/web.md), kept in `webhooks.json` beside the server's seats in its data
 * folder, and their delivery: each campaign with webhooks is followed, and after every batch of events written the
 * notifications it brings are posted to each of them, once, with no retry (a failed delivery is logged).
 */
export class WebhookNotifier {
  private readonly followed = new Map<string, Subscription>();
  /** Per campaign, the parties last said to be waited on, so that "waiting on" is told once per change. */
  private readonly lastWaiting = new Map<string, string>();
  private readonly writes = new SerialQueue();

  private constructor(
    private readonly folder: string,
    private readonly engine: Engine,
    private readonly log: FastifyBaseLogger,
    private hooks: Record<string, Webhook[]>,
  ) {}

  static async open(folder: string, engine: Engine, log: FastifyBaseLogger): Promise<WebhookNotifier> {
    let hooks: Record<string, Webhook[]> = {};
    try {
      hooks = JSON.parse(await readFile(join(folder, "webhooks.json"), "utf8")) as Record<string, Webhook[]>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const notifier = new WebhookNotifier(folder, engine, log, hooks);
    for (const campaign of Object.keys(hooks)) notifier.follow(campaign);
    return notifier;
  }

  of(campaign: string): Webhook[] {
    return this.hooks[campaign] ?? [];
  }

  /** Sets a campaign's webhooks (none: it is no longer followed), kept on disk before they take effect. */
  async set(campaign: string, hooks: Webhook[]): Promise<void> {
    await this.writes.run(async () => {
      const next = { ...this.hooks };
      if (hooks.length === 0) delete next[campaign];
      else next[campaign] = hooks;
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await replaceDurably(this.folder, join(this.folder, "webhooks.json"), `${JSON.stringify(next, null, 2)}\n`);
      this.hooks = next;
    });
    if (hooks.length === 0) {
      this.followed.get(campaign)?.unsubscribe();
      this.followed.delete(campaign);
    } else this.follow(campaign);
  }

  close(): void {
    for (const subscription of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
  }

  private follow(campaign: string): void {
    if (this.followed.has(campaign)) return;
    const { store } = this.engine;
    const appended = from(store.head(campaign)).pipe(switchMap((head) => store.batches$(campaign, head.seq + 1)));
    const subscription = appended.subscribe({
      next: (batch) => void this.notify(campaign, batch).catch((error: unknown) => this.failed(campaign, error)),
      error: (error: unknown) => this.failed(campaign, error),
    });
    this.followed.set(campaign, subscription);
  }

  private failed(campaign: string, error: unknown): void {
    this.log.error({ campaign, err: error }, `the webhooks of ${campaign} could not be told`);
  }

  private async notify(campaign: string, batch: ReadonlyArray<{ type: string; data: unknown }>): Promise<void> {
    const state = await this.engine.state(campaign);
    for (const notification of this.notificationsOf(campaign, batch, state))
      await Promise.all(this.of(campaign).map((hook) => this.deliver(hook, notification)));
  }

  private notificationsOf(
    campaign: string,
    batch: ReadonlyArray<{ type: string; data: unknown }>,
    state: CampaignState,
  ): Notification[] {
    const name = state.setup?.name ?? campaign;
    const nameOf = (party: string) =>
      party === HOST ? "the organiser" : (state.setup?.players.find((p) => p.id === party)?.name ?? party);
    const about = { campaign, name, turn: state.turn };
    const notes: Notification[] = [];
    for (const event of batch) {
      if (event.type === "TurnStarted") {
        const { turn } = event.data as { turn: number };
        notes.push({ ...about, turn, kind: "turn-began", text: `${name}: turn ${turn} began.` });
      }
      if (event.type === "BattleResultReported") {
        const { battle, by } = event.data as { battle: string; by: string };
        const other = state.setup?.players.find((p) => p.id !== by)?.id ?? by;
        notes.push({
          ...about,
          kind: "result-awaits-confirmation",
          battle,
          text: `${name}: ${nameOf(by)} reported the result of battle ${battle}; it awaits ${nameOf(other)}'s confirmation.`,
        });
      }
    }
    const waiting = Object.entries(waitingOn(state).parties)
      .map(([party, items]) => ({ party, name: nameOf(party), todo: owedByHand(items) }))
      .filter((party) => party.todo.length > 0);
    const key = JSON.stringify(waiting);
    if (waiting.length > 0 && key !== this.lastWaiting.get(campaign))
      notes.push({
        ...about,
        kind: "waiting-on",
        waitingOn: waiting,
        text: `${name} waits on ${waiting.map((w) => `${w.name} (to ${w.todo.join(", ")})`).join(" and ")}.`,
      });
    this.lastWaiting.set(campaign, key);
    return notes;
  }

  private async deliver(hook: Webhook, notification: Notification): Promise<void> {
    const body =
      hook.format === "discord"
        ? { content: notification.text }
        : hook.format === "slack"
          ? { text: notification.text }
          : notification;
    try {
      const answer = await fetch(hook.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT),
        redirect: "error",
      });
      if (!answer.ok) throw new Error(`answered ${answer.status}`);
    } catch (error) {
      this.log.warn(
        { campaign: notification.campaign, kind: notification.kind, err: (error as Error).message },
        "a webhook was not delivered",
      );
    }
  }
}
