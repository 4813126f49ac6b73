import { seatsOf } from "../client/seats.js";
import { hostBattleModel } from "../forecast/battle-model.js";
import { basename, dirname, join } from "node:path";
import { secretsOfLog, type FileSecrets } from "../client/secrets.js";
import { Table } from "../client/table.js";
import type { Engine } from "../engine/engine.js";
import { requireIntact } from "./commands/verify.js";
import { CliError } from "./errors.js";
import { pickCampaign } from "./session.js";
import { withoutComputerSeat } from "../computer/guard.js";
import { computerDir, readComputerSettings } from "../computer/settings.js";

export interface SeatOptions {
  db: string;
  campaign?: string;
  /** Where the parties' secrets files live; default: a folder beside the database. */
  secrets?: string;
  /** Act only as this party (a player id or "host"); default: every party, as at one shared machine. */
  as?: string;
  /** Take protocol chores automatically (default true). */
  chores?: boolean;
}

export function defaultSecretsDir(db: string): string {
  return join(dirname(db), `${basename(db)}-secrets`);
}

/** This machine's place at the campaign: which database, which campaign, which parties, which secrets. */
export class Seat {
  /** The parties this machine acts for, or undefined for every party of the campaign. */
  readonly acting: ReadonlySet<string> | undefined;
  readonly secretsDir: string;
  /** The seat the computer plays in the campaign of the last table made, if it plays one (docs/computer.md). */
  computerSeat: string | undefined;

  constructor(
    readonly engine: Engine,
    private readonly options: SeatOptions,
  ) {
    // An empty name would act for nobody, or put the secrets in the current folder.
    if (options.as !== undefined && options.as.trim() === "")
      throw new CliError("--as needs a party: a player of the campaign, or host");
    if (options.secrets !== undefined && options.secrets.trim() === "")
      throw new CliError("--secrets needs a folder name: e.g. --secrets my-war-secrets");
    this.acting = options.as ? new Set([options.as]) : undefined;
    this.secretsDir = options.secrets ?? defaultSecretsDir(options.db);
  }

  campaign(named = this.options.campaign): Promise<string> {
    return pickCampaign(this.engine, this.options.db, named);
  }

  secrets(campaign: string): FileSecrets {
    return secretsOfLog(this.secretsDir, campaign, this.engine.store);
  }

  /**
   * The table for a campaign (the one in the folder unless named), acting for this seat's parties: only on a log that
   * verifies, since everything the table does is decided on the log and written to it.
   */
  async table(named?: string): Promise<Table> {
    const campaign = named ?? (await this.campaign());
    await requireIntact(this.engine, campaign);
    const seats = seatsOf(await this.engine.state(campaign));
    const stranger = [...(this.acting ?? [])].find((party) => !seats.includes(party));
    if (stranger !== undefined && seats.length > 1)
      throw new CliError(`--as "${stranger}" is not a party of ${campaign}: give one of ${seats.join(", ")}`);
    // Against the computer, this machine's parties are every other one: the computer's seat is its own.
    const computer = await readComputerSettings(computerDir(this.options.db), campaign);
    this.computerSeat = computer?.seat;
    if (computer && this.acting?.has(computer.seat))
      throw new CliError(
        `${computer.seat} is played by the computer in ${campaign}: act as ${seats.filter((s) => s !== computer.seat).join(" or ")}`,
      );
    const parties = this.acting ?? (computer ? new Set(seats.filter((party) => party !== computer.seat)) : undefined);
    const engine = computer ? withoutComputerSeat(this.engine, computer.seat) : this.engine;
    return new Table(engine, campaign, {
      ...(parties ? { parties } : {}),
      secrets: this.secrets(campaign),
      chores: this.options.chores ?? true,
      battleModel: hostBattleModel,
    });
  }
}
