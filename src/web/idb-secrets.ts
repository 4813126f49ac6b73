import { keepOrderBeside, PartyKeeper, type PartySecrets } from "../client/party-secrets.js";
import { deviceKeyOf, type DeviceKey, type HeldKey } from "../crypto/signatures.js";
import { changeRecords, readRecord, STORES } from "./idb.js";

const parse = (text: unknown): PartySecrets => (typeof text === "string" ? (JSON.parse(text) as PartySecrets) : {});

/**
 * A player's secrets in this browser's IndexedDB (docs/web.md): the same object, `{orders, playerSeeds, hostSeeds}`,
 * as the CLI's secrets file `<secrets>/<campaign>/<party>.json` (docs/secrets.md), so the one can be exported as the
 * other. A keep returns once its transaction is committed, so the page keeps a secret before it sends its commitment.
 *
 * The seat's key is the exception (D2): it is a non-extractable CryptoKey, kept apart (its own store, by structured
 * clone), so that its private half never leaves this browser, not even to the page's own script, and no secrets file
 * holds it. A key kept as its seed (by a page from before, or imported from a file) is made such a key when first
 * used, and its seed forgotten.
 */
export class BrowserSecrets extends PartyKeeper {
  private constructor(private readonly campaign: string) {
    super();
  }

  static open(campaign: string): Promise<BrowserSecrets> {
    return Promise.resolve(new BrowserSecrets(campaign));
  }

  private key(party: string): string {
    return `${this.campaign}/${party}`;
  }

  protected async read(party: string): Promise<PartySecrets> {
    return parse(await readRecord(STORES.secrets, this.key(party)));
  }

  /**
   * Read-change-write in one IndexedDB transaction, so that the keeps of several tabs of one seat land one after the
   * other and none reads a secret another is replacing; a change that throws writes nothing.
   */
  protected update(party: string, change: (secrets: PartySecrets) => void): Promise<void> {
    return changeRecords([STORES.secrets], this.key(party), (records) => {
      const secrets = parse(records.secrets);
      change(secrets);
      return { secrets: JSON.stringify(secrets) };
    });
  }

  /** The party's key: the non-extractable one, or one kept as its seed, which is made non-extractable first. */
  override async seatKey(party: string): Promise<HeldKey | undefined> {
    const held = await readRecord<DeviceKey>(STORES.seatKeys, this.key(party));
    if (held) return held;
    const seed = (await this.read(party)).seatKey;
    if (!seed) return undefined;
    await this.keepSeatKey(party, seed);
    return this.seatKey(party);
  }

  /** Keeps the party's key as a non-extractable CryptoKey, and forgets any seed kept for it, in one transaction. */
  override async keepSeatKey(party: string, key: HeldKey): Promise<void> {
    const device = typeof key.privateKey === "string" ? await deviceKeyOf({ ...key, privateKey: key.privateKey }) : key;
    await changeRecords([STORES.secrets, STORES.seatKeys], this.key(party), (records) => {
      const secrets = parse(records.secrets);
      delete secrets.seatKey;
      return {
        secrets: JSON.stringify(secrets),
        seatKeys: { publicKey: device.publicKey, privateKey: device.privateKey },
      };
    });
  }

  /** The party's secrets as the CLI writes its secrets file: all but the key, which never leaves this browser. */
  async exportFile(party: string): Promise<string> {
    await this.seatKey(party);
    return `${JSON.stringify(await this.read(party), null, 2)}\n`;
  }

  /**
   * Adds the secrets of an imported file to those held: orders beside those held; a seed held already must be the
   * same; a key, where this browser holds none or the same, made non-extractable.
   */
  async importFile(party: string, imported: PartySecrets): Promise<void> {
    // D2: a key imported joins the held ones only where this browser holds none yet, or the same.
    const heldKey = imported.seatKey ? await this.seatKey(party) : undefined;
    if (heldKey && heldKey.publicKey !== imported.seatKey!.publicKey)
      throw new Error(
        "seatKey: this browser already holds another key for this seat; nothing was imported (keep the one in force)",
      );
    await this.update(party, (held) => {
      // Every order imported is kept beside those held for its army (T5): the log may commit to any of them.
      for (const [key, last] of Object.entries(imported.orders ?? {}))
        for (const order of [...(imported.earlierOrders?.[key] ?? [])].reverse().concat(last))
          keepOrderBeside(held, key, order);
      for (const part of ["playerSeeds", "hostSeeds"] as const) {
        const entries = Object.entries(imported[part] ?? {});
        if (entries.length === 0) continue;
        const into: Record<string, unknown> = (held[part] ??= {});
        for (const [key, value] of entries) {
          const known = into[key];
          if (known !== undefined && JSON.stringify(known) !== JSON.stringify(value))
            throw new Error(
              `${part}.${key}: this browser already holds another secret for it; nothing was imported (keep the one that matches the log)`,
            );
          into[key] = value;
        }
      }
    });
    if (imported.seatKey) await this.keepSeatKey(party, imported.seatKey);
  }
}
