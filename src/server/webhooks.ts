import { mkdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyBaseLogger } from "fastify";
import { from, switchMap, type Subscription } from "rxjs";
import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { replaceDurably } from "../client/secrets.js";
import type { Engine } from "../engine/engine.js";
import type { SealedTexts } from "../log/index.js";
import { SerialQueue } from "../log/queue.js";
import { waitingOn } from "../rules/waiting-on.js";
import { owedByHand } from "../words/owed.js";
import { openText, SealedSecretsError, sealText } from "./sealed-secrets.js";

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
/** How often a server on a shared database reads the webhooks again, for those set at other instances (ms). */
const SHARED_REFRESH_MS = 1_000;
/** The sealed text of the webhooks on a shared database: one line and party no campaign can be. */
const SHARED_WEBHOOKS = ["epicwar servers", "webhooks"] as const;

type HooksByCampaign = Record<string, Webhook[]>;

/** Where a server's webhooks are kept: its data folder's `webhooks.json`, or sealed in a shared database. */
interface HooksKept {
  read(): Promise<HooksByCampaign>;
  /** Replaces them with what `change` makes of them, durably: what was kept. */
  change(change: (hooks: HooksByCampaign) => HooksByCampaign): Promise<HooksByCampaign>;
}

/** The webhooks in a server-data folder's `webhooks.json`, changed one at a time. */
function hooksInFolder(folder: string): HooksKept {
  const writes = new SerialQueue();
  const read = async (): Promise<HooksByCampaign> => {
    try {
      return JSON.parse(await readFile(join(folder, "webhooks.json"), "utf8")) as HooksByCampaign;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return {};
    }
  };
  return {
    read,
    change: (change) =>
      writes.run(async () => {
        const next = change(await read());
        await mkdir(folder, { recursive: true, mode: 0o700 });
        await replaceDurably(folder, join(folder, "webhooks.json"), `${JSON.stringify(next, null, 2)}\n`);
        return next;
      }),
  };
}

/**
 * Adds a server-data folder's `webhooks.json` (kept there before the server had a shared database and a secrets key)
 * to the sealed webhooks, once: a campaign's webhooks already in the database stay as they are, and the file is then
 * renamed `webhooks.imported.json`, so that no channel's key is left in the clear beside the sealed copy unnoticed.
 */
async function importHooksFile(folder: string, sealed: HooksKept): Promise<void> {
  const found = await hooksInFolder(folder).read();
  if (Object.keys(found).length === 0) return;
  await sealed.change((kept) => ({ ...found, ...kept }));
  await rename(join(folder, "webhooks.json"), join(folder, "webhooks.imported.json"));
}

/**
 * The webhooks in a shared database, sealed with the instances' secrets key as the host's secrets are: a webhook's
 * URL may hold a channel's key (Discord's and Slack's do), which whoever reads the database alone must not get.
 */
function sealedHooks(texts: SealedTexts, key: Buffer): HooksKept {
  const open = (sealed: string | undefined): HooksByCampaign => {
    if (sealed === undefined) return {};
    const text = openText(key, SHARED_WEBHOOKS, sealed);
    if (text === undefined)
      throw new SealedSecretsError(
        "the webhooks in the database do not open with this secrets key: every instance must be given the same key (docs/scaling.md)",
      );
    return JSON.parse(text) as HooksByCampaign;
  };
  return {
    read: async () => open(await texts.read(...SHARED_WEBHOOKS)),
    change: async (change) => {
      let next: HooksByCampaign = {};
      await texts.update(...SHARED_WEBHOOKS, (sealed) => {
        next = change(open(sealed));
        return sealText(key, SHARED_WEBHOOKS, JSON.stringify(next));
      });
      return next;
    },
  };
}

/**
 * The organiser's webhooks per campaign (docs/web.md), kept in `webhooks.json` beside the server's seats in its data
 * folder (on PostgreSQL with a secrets key, sealed in the database, for every instance), and their delivery: each
 * campaign with webhooks is followed, and after every batch of events written the notifications it brings are posted
 * to each of them, once, with no retry (a failed delivery is logged). On a shared database every instance follows
 * them, and only the one that takes the host's steps (the holder of their lease) posts.
 */
export class WebhookNotifier {
  private readonly followed = new Map<string, Subscription>();
  /** Per campaign, the parties last said to be waited on, so that "waiting on" is told once per change. */
  private readonly lastWaiting = new Map<string, string>();
  private hooks: HooksByCampaign = {};
  private refreshing: NodeJS.Timeout | undefined;

  private constructor(
    private readonly kept: HooksKept,
    private readonly engine: Engine,
    private readonly log: FastifyBaseLogger,
    /** Whether this server posts the notifications now (on a shared database: it holds the host's steps' lease). */
    private readonly delivers: () => boolean,
    private readonly shared: boolean,
  ) {}

  /**
   * The webhooks of a server-data folder, or sealed in the shared database where `sealed` (its texts and the secrets
   * key) is given: then read again every SHARED_REFRESH_MS, for those set at other instances.
   */
  static async open(
    folder: string,
    engine: Engine,
    log: FastifyBaseLogger,
    options: { sealed?: { texts: SealedTexts; key: Buffer }; delivers?: () => boolean } = {},
  ): Promise<WebhookNotifier> {
    const { sealed } = options;
    const kept = sealed ? sealedHooks(sealed.texts, sealed.key) : hooksInFolder(folder);
    if (sealed) await importHooksFile(folder, kept);
    const notifier = new WebhookNotifier(kept, engine, log, options.delivers ?? (() => true), sealed !== undefined);
    notifier.took(await kept.read());
    if (sealed) notifier.refreshing = setInterval(() => void notifier.refresh(), SHARED_REFRESH_MS);
    return notifier;
  }

  /** A campaign's webhooks: on a shared database, as it holds them now. */
  async of(campaign: string): Promise<Webhook[]> {
    if (this.shared) this.took(await this.kept.read());
    return this.hooks[campaign] ?? [];
  }

  /** Sets a campaign's webhooks (none: it is no longer followed), kept durably before they take effect. */
  async set(campaign: string, hooks: Webhook[]): Promise<void> {
    this.took(
      await this.kept.change((found) => {
        const next = { ...found };
        if (hooks.length === 0) delete next[campaign];
        else next[campaign] = hooks;
        return next;
      }),
    );
  }

  close(): void {
    clearInterval(this.refreshing);
    for (const subscription of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
  }

  private async refresh(): Promise<void> {
    try {
      this.took(await this.kept.read());
    } catch (error) {
      this.log.warn({ err: error }, `the webhooks could not be read again: ${(error as Error).message}`);
    }
  }

  /** Takes the webhooks as kept: follows the campaigns that have some, and no others. */
  private took(hooks: HooksByCampaign): void {
    this.hooks = hooks;
    for (const campaign of Object.keys(hooks)) this.follow(campaign);
    for (const [campaign, subscription] of this.followed)
      if (!(campaign in hooks)) {
        subscription.unsubscribe();
        this.followed.delete(campaign);
      }
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
    // Every instance keeps track of what it would tell, so that the one that takes over posting goes on from there.
    const notifications = this.notificationsOf(campaign, batch, state);
    if (!this.delivers()) return;
    for (const notification of notifications)
      await Promise.all((this.hooks[campaign] ?? []).map((hook) => this.deliver(hook, notification)));
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
