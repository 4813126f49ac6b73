import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Order } from "../../events/common.js";

/** A player's hidden order for one army in one turn, as only that player holds it until the reveal (T5). */
export interface HeldOrder {
  order: Order;
  salt: string;
}

/**
 * What each party keeps off the shared log: players their orders and salts, the host its dice seeds (D1).
 * Losing it means the orders cannot be revealed; the log and the audit show that.
 */
export interface SecretKeeper {
  order(player: string, turn: number, army: string): Promise<HeldOrder | undefined>;
  keepOrder(player: string, turn: number, army: string, held: HeldOrder): Promise<void>;
  hostSeed(turn: number): Promise<string | undefined>;
  keepHostSeed(turn: number, seed: string): Promise<void>;
}

interface PartySecrets {
  orders?: Record<string, HeldOrder>;
  hostSeeds?: Record<string, string>;
}

const orderKey = (turn: number, army: string) => `${turn}/${army}`;

/** Secrets held in memory: for tests and for parties that keep them elsewhere. */
export class MemorySecrets implements SecretKeeper {
  private readonly parties = new Map<string, PartySecrets>();

  private party(name: string): PartySecrets {
    let party = this.parties.get(name);
    if (!party) this.parties.set(name, (party = {}));
    return party;
  }

  async order(player: string, turn: number, army: string) {
    return this.party(player).orders?.[orderKey(turn, army)];
  }

  async keepOrder(player: string, turn: number, army: string, held: HeldOrder) {
    (this.party(player).orders ??= {})[orderKey(turn, army)] = held;
  }

  async hostSeed(turn: number) {
    return this.party("host").hostSeeds?.[String(turn)];
  }

  async keepHostSeed(turn: number, seed: string) {
    (this.party("host").hostSeeds ??= {})[String(turn)] = seed;
  }
}

/**
 * One JSON file per party: `<dir>/<campaign>/<party>.json`, kept apart from the shared log (docs/secrets.md).
 * Written to a temporary file and renamed, so a crash never leaves half a file.
 */
export class FileSecrets implements SecretKeeper {
  constructor(
    private readonly dir: string,
    private readonly campaign: string,
  ) {}

  private path(party: string): string {
    return join(this.dir, this.campaign, `${party}.json`);
  }

  private async read(party: string): Promise<PartySecrets> {
    try {
      return JSON.parse(await readFile(this.path(party), "utf8")) as PartySecrets;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw new Error(`cannot read ${party}'s secrets file ${this.path(party)}: ${(error as Error).message}`);
    }
  }

  private async write(party: string, secrets: PartySecrets): Promise<void> {
    const path = this.path(party);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(`${path}.tmp`, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
  }

  async order(player: string, turn: number, army: string) {
    return (await this.read(player)).orders?.[orderKey(turn, army)];
  }

  async keepOrder(player: string, turn: number, army: string, held: HeldOrder) {
    const secrets = await this.read(player);
    (secrets.orders ??= {})[orderKey(turn, army)] = held;
    await this.write(player, secrets);
  }

  async hostSeed(turn: number) {
    return (await this.read("host")).hostSeeds?.[String(turn)];
  }

  async keepHostSeed(turn: number, seed: string) {
    const secrets = await this.read("host");
    (secrets.hostSeeds ??= {})[String(turn)] = seed;
    await this.write("host", secrets);
  }
}
