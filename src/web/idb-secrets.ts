import { keepOrderBeside, PartyKeeper, type PartySecrets } from "../client/party-secrets.js";

const DATABASE = "epicwar";
const STORE = "secrets";

/** Opens the page's database: one object store of secrets files, keyed "<campaign>/<party>". */
function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** One request in a transaction that is committed (durable) before the promise settles. */
function transact<T>(db: IDBDatabase, mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) {
  return new Promise<T>((resolve, reject) => {
    const transaction = db.transaction(STORE, mode, { durability: "strict" });
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error("the secrets transaction was aborted"));
  });
}

/**
 * A player's secrets in this browser's IndexedDB (docs/web.md): the same object, `{orders, playerSeeds, hostSeeds}`,
 * as the CLI's secrets file `<secrets>/<campaign>/<party>.json` (docs/secrets.md), so the one can be exported as the
 * other. A keep returns once its transaction is committed, so the page keeps a secret before it sends its commitment.
 */
export class BrowserSecrets extends PartyKeeper {
  private constructor(
    private readonly db: IDBDatabase,
    private readonly campaign: string,
  ) {
    super();
  }

  static async open(campaign: string): Promise<BrowserSecrets> {
    return new BrowserSecrets(await openDatabase(), campaign);
  }

  private key(party: string): string {
    return `${this.campaign}/${party}`;
  }

  protected async read(party: string): Promise<PartySecrets> {
    const text = await transact<string | undefined>(this.db, "readonly", (store) => store.get(this.key(party)));
    return text === undefined ? {} : (JSON.parse(text) as PartySecrets);
  }

  /**
   * Read-change-write in one IndexedDB transaction, so that the keeps of several tabs of one seat land one after the
   * other and none reads a secret another is replacing; a change that throws writes nothing.
   */
  protected update(party: string, change: (secrets: PartySecrets) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const transaction = this.db.transaction(STORE, "readwrite", { durability: "strict" });
      const store = transaction.objectStore(STORE);
      let failure: unknown;
      const read = store.get(this.key(party));
      read.onsuccess = () => {
        const text = read.result as string | undefined;
        const secrets = text === undefined ? {} : (JSON.parse(text) as PartySecrets);
        try {
          change(secrets);
        } catch (error) {
          failure = error;
          transaction.abort();
          return;
        }
        store.put(JSON.stringify(secrets), this.key(party));
      };
      transaction.oncomplete = () => resolve();
      transaction.onabort = () =>
        reject(failure ?? transaction.error ?? new Error("the secrets transaction was aborted"));
    });
  }

  /** The party's secrets as the CLI writes its secrets file. */
  async exportFile(party: string): Promise<string> {
    return `${JSON.stringify(await this.read(party), null, 2)}\n`;
  }

  /** Adds the secrets of an imported file to those held: orders beside those held; a seed held already must be the same. */
  importFile(party: string, imported: PartySecrets): Promise<void> {
    return this.update(party, (held) => {
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
      // D2: a key imported joins the held ones only where this browser holds none yet, or the same.
      if (imported.seatKey) {
        if (held.seatKey && held.seatKey.publicKey !== imported.seatKey.publicKey)
          throw new Error(
            "seatKey: this browser already holds another key for this seat; nothing was imported (keep the one in force)",
          );
        held.seatKey = imported.seatKey;
      }
    });
  }
}
