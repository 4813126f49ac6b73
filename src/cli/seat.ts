import { seatsOf } from "../client/seats.js";
import { basename, dirname, join } from "node:path";
import { secretsOfLog, type FileSecrets } from "../client/secrets.js";
import { Table } from "../client/table.js";
import type { Engine } from "../engine/engine.js";
import { requireIntact } from "./commands/verify.js";
import { CliError } from "./errors.js";
import { pickCampaign } from "./session.js";

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
    return new Table(this.engine, campaign, {
      ...(this.acting ? { parties: this.acting } : {}),
      secrets: this.secrets(campaign),
      chores: this.options.chores ?? true,
    });
  }
}
