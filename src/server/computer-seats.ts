import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyBaseLogger } from "fastify";
import { Id } from "../../events/common.js";
import { COMPUTER_LEVELS } from "../computer/decide.js";
import { secretsOfLog } from "../client/secrets.js";
import { localComputerSeat } from "../computer/local-seat.js";
import type { ComputerSeatRows } from "../log/index.js";
import {
  checkComputerSetup,
  ComputerSettingsError,
  DEFAULT_THINK_MS,
  MAX_THINK_MS,
  computerSettingsText,
  parseComputer,
  readComputerSettings,
  settingsFromText,
  writeComputerSettings,
  type ComputerSettings,
} from "../computer/settings.js";
import type { SetupFile } from "../setup/setup-file.js";
import type { Campaigns } from "./campaigns.js";
import { HttpError } from "./errors.js";
import { Retries } from "./retries.js";

/** POST /campaigns's `computer`: the seat the computer plays, its level, its thinking time per decision. */
export const ComputerField = Type.Object(
  {
    seat: Id,
    level: Type.Optional(Type.Union(COMPUTER_LEVELS.map((level) => Type.Literal(level)))),
    thinkMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_THINK_MS })),
  },
  { additionalProperties: false },
);
export type ComputerField = Static<typeof ComputerField>;

/** The computer's folder in a server-data folder: its settings and secrets, apart from the host's. */
export const computerFolder = (serverData: string) => join(serverData, "computer");

/** The computer's settings of a campaign and the folder they are in, from the first of `folders` that has them. */
async function settingsIn(
  folders: readonly string[],
  campaign: string,
): Promise<{ folder: string; settings: ComputerSettings } | undefined> {
  for (const folder of folders) {
    const settings = await readComputerSettings(folder, campaign);
    if (settings) return { folder, settings };
  }
  return undefined;
}

/**
 * The computer's settings of a campaign: in the shared database where it has them (`rows`), else in the first of
 * `folders` that has them (a campaign made before they were kept in the database, or on LevelDB), with that folder.
 */
async function findSettings(
  rows: ComputerSeatRows | undefined,
  folders: readonly string[],
  campaign: string,
): Promise<{ folder?: string; settings: ComputerSettings } | undefined> {
  const text = await rows?.read(campaign);
  if (text !== undefined)
    return { settings: settingsFromText(text, `the database's computer_seats row of ${campaign}`) };
  return settingsIn(folders, campaign);
}

/** The seat the computer plays in a campaign, or undefined where it plays none. */
export async function computerSeatOf(
  rows: ComputerSeatRows | undefined,
  folders: readonly string[],
  campaign: string,
): Promise<string | undefined> {
  return (await findSettings(rows, folders, campaign))?.settings.seat;
}

type LocalComputer = ReturnType<typeof localComputerSeat>;

/** The first and the longest wait before the computer's steps that failed (a conflict, say) are tried again. */
const RETRY_DELAYS = [250, 30_000] as const;
/** Rounds of the host's chores and the computer's steps one turn of the chore takes at most. */
const MAX_ROUNDS = 200;

/**
 * The computer's seats of the campaigns a server serves (docs/computer.md, docs/server.md): their settings and the
 * computer's own secrets in `<server data>/computer/`, apart from the host's; on PostgreSQL, the settings in the
 * database and, with a secrets key, the secrets too, sealed as the host's are, so that any instance takes the steps.
 * After each append that leaves a campaign waiting on the computer, its steps are taken as a chore of the server's,
 * after the writes queued on the campaign and never inside a request, by the server that takes the host's steps (on a
 * shared database, the holder of their lease, which also follows the other instances' appends); one that fails
 * (another writer's append between its read and its write) is tried again.
 */
export class ServerComputers {
  private readonly seats = new Map<string, LocalComputer>();
  /**
   * Campaigns known to have no computer: their settings are kept before their first event (POST /campaigns,
   * `epicwar new --computer`), so a campaign that is in the log without them never gains them.
   */
  private readonly without = new Set<string>();
  private readonly retries = new Retries(...RETRY_DELAYS);
  /** The chores under way: a closing server waits for them before its log is closed. */
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  private readonly folders: readonly string[];
  /** On a shared database, the computer's settings kept there. */
  private readonly rows: ComputerSeatRows | undefined;

  constructor(
    private readonly campaigns: Campaigns,
    /** The computer's folder in the server-data folder: the campaigns created through the server keep it there. */
    readonly folder: string,
    /** Folders of campaigns made elsewhere against the computer (`epicwar new --computer`'s `<db>-computer/`). */
    madeElsewhere: readonly string[] = [],
  ) {
    this.folders = [folder, ...madeElsewhere];
    this.rows = campaigns.engine.store.computerSeats;
  }

  /** Takes the computer's steps wherever the host's may be due: after other processes' appends, on taking the lease. */
  follow(log: FastifyBaseLogger): void {
    this.campaigns.onStepsDue = (campaign) => this.schedule(campaign, log);
    for (const campaign of this.campaigns.ids()) this.schedule(campaign, log);
  }

  static inServerData(campaigns: Campaigns, serverData: string, madeElsewhere?: readonly string[]): ServerComputers {
    return new ServerComputers(campaigns, computerFolder(serverData), madeElsewhere);
  }

  /**
   * The settings of POST /campaigns's `computer` for a set-up, or a 400 naming the field: a player of the set-up, a
   * level, a campaign without fog of war (A2).
   */
  settingsFor(field: ComputerField, setup: SetupFile): ComputerSettings {
    try {
      checkComputerSetup(setup);
      return parseComputer(
        `${field.seat}:${field.level ?? "scripted"}`,
        setup.players.map((p) => p.id),
        field.thinkMs ?? DEFAULT_THINK_MS,
      );
    } catch (error) {
      if (error instanceof ComputerSettingsError)
        throw new HttpError("invalid", `computer.seat: ${error.message}`, { field: "computer.seat" });
      throw error;
    }
  }

  /** Keeps a new campaign's computer settings, durably, before any of its steps. */
  keep(campaign: string, settings: ComputerSettings): Promise<void> {
    if (this.rows) return this.rows.write(campaign, computerSettingsText(settings));
    return writeComputerSettings(this.folder, campaign, settings);
  }

  /** Forgets the settings of a campaign the log refused to create. */
  forget(campaign: string): Promise<void> {
    if (this.rows) return this.rows.forget(campaign);
    return rm(join(this.folder, `${campaign}.json`), { force: true });
  }

  seatOf(campaign: string): Promise<string | undefined> {
    return computerSeatOf(this.rows, this.folders, campaign);
  }

  /**
   * Takes the computer's due steps in a campaign's own line soon, between requests (a branch has no computer): where
   * this server takes the host's steps (on a shared database, holds their lease).
   */
  schedule(campaign: string, log: FastifyBaseLogger): void {
    if (this.closed || this.without.has(campaign)) return;
    if (this.campaigns.engine.store.shared && !this.campaigns.takesHostSteps) return;
    const chore = this.campaigns.serialize(campaign, () => this.takeSteps(campaign, log));
    this.running.add(chore);
    void chore.finally(() => this.running.delete(chore));
  }

  /** Takes no more steps, and waits for those under way. */
  async close(): Promise<void> {
    this.closed = true;
    this.retries.close();
    await Promise.all(this.running);
  }

  /** The host's chores and the computer's steps in turn until the campaign waits on a person, or has ended. */
  private async takeSteps(campaign: string, log: FastifyBaseLogger): Promise<void> {
    try {
      const computer = await this.seatIn(campaign);
      if (!computer) return;
      const { engine } = this.campaigns;
      for (let round = 0; round < MAX_ROUNDS && !this.closed && this.campaigns.takesHostSteps; round++) {
        const before = (await engine.state(campaign)).seq;
        await this.campaigns.takeHostChores(campaign, log);
        await computer.play();
        if ((await engine.state(campaign)).seq === before) break;
      }
      this.retries.reset(campaign);
    } catch (error) {
      log.error({ campaign, err: error }, `the computer's steps in ${campaign} failed: ${(error as Error).message}`);
      this.retries.schedule(campaign, () => this.schedule(campaign, log));
    }
  }

  /** The computer's seat of a campaign, made once (its secrets file claimed once); undefined where it plays none. */
  private async seatIn(campaign: string): Promise<LocalComputer | undefined> {
    const known = this.seats.get(campaign);
    if (known) return known;
    const found = await findSettings(this.rows, this.folders, campaign);
    const { engine } = this.campaigns;
    if (!found) {
      if ((await engine.store.head(campaign)).seq > 0) this.without.add(campaign);
      return undefined;
    }
    // Settings kept in the database have their secrets sealed there, with a secrets key; else in this server's folder.
    const secrets =
      (found.folder === undefined ? this.campaigns.sealedSecrets(campaign) : undefined) ??
      secretsOfLog(found.folder ?? this.folder, campaign, engine.store);
    const seat = localComputerSeat(engine, campaign, found.settings, secrets);
    this.seats.set(campaign, seat);
    return seat;
  }
}
