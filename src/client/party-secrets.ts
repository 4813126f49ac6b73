/*
 * A party's secrets and how they are read and kept, apart from where they live: files for the CLI and the server
 * (secrets.ts), IndexedDB for the web page. Nothing here imports a Node module, so the browser takes it whole.
 */
import type { Order } from "../../events/common.js";
import type { HeldKey, SeatKey } from "../crypto/signatures.js";

/** A player's hidden order for one army in one turn, as only that player holds it until the reveal (T5). */
export interface HeldOrder {
  order: Order;
  salt: string;
}

/**
 * What each party keeps off the shared log: players their orders, salts and dice seeds, the host its dice seeds (D1).
 * Every keep is durable when it returns, so a secret can be kept before the event that commits to it is appended.
 * Losing it means the secret cannot be revealed; the log and the audit show that.
 */
export interface SecretKeeper {
  /** The order last kept for an army in a turn. */
  order(player: string, turn: number, army: string): Promise<HeldOrder | undefined>;
  /**
   * Every order kept for an army in a turn, the last kept first: a command whose answer was lost (a write that failed
   * and may yet be on disk) may have put any of them in the log, so an order given after it is kept beside it.
   */
  ordersKept(player: string, turn: number, army: string): Promise<HeldOrder[]>;
  /** Keeps an order for an army in a turn; one kept for it already stays beside it, never replaced (T5). */
  keepOrder(player: string, turn: number, army: string, held: HeldOrder): Promise<void>;
  /** Drops the orders of a turn that nothing in the log commits to (kept for a command that was then refused). */
  pruneOrders(player: string, turn: number, committed: (army: string, held: HeldOrder) => boolean): Promise<void>;
  hostSeed(turn: number): Promise<string | undefined>;
  /** Keeps the host's seed for a turn; a seed kept for it already is never replaced (SeedKeptError). */
  keepHostSeed(turn: number, seed: string): Promise<void>;
  playerSeed(player: string, turn: number): Promise<string | undefined>;
  /** Keeps a player's seed for a turn; a seed kept for it already is never replaced (SeedKeptError). */
  keepPlayerSeed(player: string, turn: number, seed: string): Promise<void>;
  /** D2: the party's signing key, made on this device and kept before its registration is submitted. */
  seatKey(party: string): Promise<HeldKey | undefined>;
  keepSeatKey(party: string, key: HeldKey): Promise<void>;
}

export interface PartySecrets {
  /** The order last kept for each army in a turn ("<turn>/<army>"). */
  orders?: Record<string, HeldOrder>;
  /** The orders kept for the same army and turn before it, which the log may commit to as well: the last kept first. */
  earlierOrders?: Record<string, HeldOrder[]>;
  hostSeeds?: Record<string, string>;
  playerSeeds?: Record<string, string>;
  /** D2: the party's key pair; the public key is in the log once registered, the private key never leaves here. */
  seatKey?: SeatKey;
}

const orderKey = (turn: number, army: string) => `${turn}/${army}`;

/**
 * A dice seed kept for a turn is never replaced by another: a commitment to it may be in the log already (sent by
 * another tab or process whose command this one has not read yet), and the seed is the only way to give it (D1).
 */
export class SeedKeptError extends Error {
  override readonly name = "SeedKeptError";
}

/** Keeps a seed for a turn unless another is kept for it already (the same one again is a no-op). */
function keepSeedOnce(seeds: Record<string, string>, party: string, turn: number, seed: string): void {
  const held = seeds[String(turn)];
  if (held !== undefined && held !== seed)
    throw new SeedKeptError(
      `${party} already keeps another dice seed for turn ${turn}, which the log may commit to: it is never replaced (D1)`,
    );
  seeds[String(turn)] = seed;
}

/** Every order kept under a key, the last kept first. */
function ordersUnder(secrets: PartySecrets, key: string): HeldOrder[] {
  const last = secrets.orders?.[key];
  return last ? [last, ...(secrets.earlierOrders?.[key] ?? [])] : [];
}

const sameOrder = (a: HeldOrder, b: HeldOrder) => a.order === b.order && a.salt === b.salt;

/** Keeps an order as the last for its turn/army key; those kept before it, if others, go on beside it. */
export function keepOrderBeside(secrets: PartySecrets, key: string, held: HeldOrder): void {
  const kept = ordersUnder(secrets, key).filter((other) => !sameOrder(other, held));
  (secrets.orders ??= {})[key] = { order: held.order, salt: held.salt };
  setEarlier(secrets, key, kept);
}

function setEarlier(secrets: PartySecrets, key: string, earlier: HeldOrder[]): void {
  if (earlier.length > 0) (secrets.earlierOrders ??= {})[key] = earlier;
  else if (secrets.earlierOrders) {
    delete secrets.earlierOrders[key];
    if (Object.keys(secrets.earlierOrders).length === 0) delete secrets.earlierOrders;
  }
}

/** Drops a turn's orders that `committed` does not name; true when any was dropped. */
function pruneTurnOrders(
  secrets: PartySecrets,
  turn: number,
  committed: (army: string, held: HeldOrder) => boolean,
): boolean {
  let pruned = false;
  const keys = Object.keys(secrets.orders ?? {}).filter((key) => key.startsWith(`${turn}/`));
  for (const key of keys) {
    const army = key.slice(`${turn}/`.length);
    const all = ordersUnder(secrets, key);
    const kept = all.filter((held) => committed(army, held));
    if (kept.length === all.length) continue;
    pruned = true;
    if (kept[0]) secrets.orders![key] = kept[0];
    else delete secrets.orders![key];
    setEarlier(secrets, key, kept.slice(1));
  }
  return pruned;
}

/** Reads and changes parties' secrets; the two keepers differ only in where a party's secrets live. */
export abstract class PartyKeeper implements SecretKeeper {
  protected abstract read(party: string): Promise<PartySecrets>;
  protected abstract update(party: string, change: (secrets: PartySecrets) => void): Promise<void>;

  async order(player: string, turn: number, army: string) {
    return (await this.read(player)).orders?.[orderKey(turn, army)];
  }

  async ordersKept(player: string, turn: number, army: string) {
    return ordersUnder(await this.read(player), orderKey(turn, army));
  }

  keepOrder(player: string, turn: number, army: string, held: HeldOrder) {
    return this.update(player, (secrets) => keepOrderBeside(secrets, orderKey(turn, army), held));
  }

  async pruneOrders(player: string, turn: number, committed: (army: string, held: HeldOrder) => boolean) {
    const prune = (secrets: PartySecrets) => pruneTurnOrders(secrets, turn, committed);
    if (!prune(structuredClone(await this.read(player)))) return;
    await this.update(player, (secrets) => void prune(secrets));
  }

  async hostSeed(turn: number) {
    return (await this.read("host")).hostSeeds?.[String(turn)];
  }

  keepHostSeed(turn: number, seed: string) {
    return this.update("host", (secrets) => keepSeedOnce((secrets.hostSeeds ??= {}), "host", turn, seed));
  }

  async playerSeed(player: string, turn: number) {
    return (await this.read(player)).playerSeeds?.[String(turn)];
  }

  keepPlayerSeed(player: string, turn: number, seed: string) {
    return this.update(player, (secrets) => keepSeedOnce((secrets.playerSeeds ??= {}), player, turn, seed));
  }

  async seatKey(party: string): Promise<HeldKey | undefined> {
    return (await this.read(party)).seatKey;
  }

  keepSeatKey(party: string, key: HeldKey) {
    if (typeof key.privateKey !== "string")
      return Promise.reject(new Error(`${party}'s key is held by the platform, not as text: it cannot be kept here`));
    const seed: SeatKey = { publicKey: key.publicKey, privateKey: key.privateKey };
    return this.update(party, (secrets) => void (secrets.seatKey = seed));
  }
}

/** Secrets held in memory: for tests and for parties that keep them elsewhere. */
export class MemorySecrets extends PartyKeeper {
  private readonly parties = new Map<string, PartySecrets>();

  protected async read(party: string): Promise<PartySecrets> {
    return this.parties.get(party) ?? {};
  }

  protected async update(party: string, change: (secrets: PartySecrets) => void): Promise<void> {
    const secrets = this.parties.get(party) ?? {};
    change(secrets);
    this.parties.set(party, secrets);
  }
}
