/*
 * The page's IndexedDB database (docs/web.md): a seat's secrets files, its keys, and its receipts, each an object
 * store keyed "<campaign>/<party>" (a branch's campaign is "<campaign>~<branch>"). Every write is committed
 * ("strict" durability) before its promise settles, and every change is a read-change-write in one transaction, so
 * that the tabs of one seat change a record one after the other and none loses another's change.
 */

const DATABASE = "epicwar";
/** Version 1 held the secrets alone; version 2 adds the non-extractable seat keys and the receipts. */
const VERSION = 2;
export const STORES = { secrets: "secrets", seatKeys: "seatKeys", receipts: "receipts" } as const;
export type StoreName = (typeof STORES)[keyof typeof STORES];

/** The name a line's records are kept under: the campaign's id, or "<campaign>~<branch>" for a branch. */
export const lineRecords = (campaign: string, branch: string | undefined): string =>
  branch === undefined ? campaign : `${campaign}~${branch}`;

let opened: Promise<IDBDatabase> | undefined;

/** The page's database, opened once, its stores made where a page of an earlier version left them out. */
export function openDatabase(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, VERSION);
    request.onupgradeneeded = () => {
      for (const name of Object.values(STORES))
        if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
    };
    request.onsuccess = () => {
      // A newer page in another tab upgrades the database: this one lets it, and opens it again when next asked.
      request.result.onversionchange = () => {
        request.result.close();
        opened = undefined;
      };
      resolve(request.result);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () =>
      reject(new Error("a tab of this page from before an update holds its database: reload or close that tab"));
  });
  const pending = opened;
  pending.catch(() => opened === pending && (opened = undefined));
  return pending;
}

/** A record of a store, undefined where none is kept. */
export async function readRecord<T>(store: StoreName, key: string): Promise<T | undefined> {
  const db = await openDatabase();
  return new Promise<T | undefined>((resolve, reject) => {
    const request = db.transaction(store, "readonly").objectStore(store).get(key);
    request.onsuccess = () => resolve(request.result as T | undefined);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Read-change-write of records of one or more stores in one transaction: `change` is given each record (undefined
 * where none is kept) and returns each to write (undefined to delete it). A change that throws writes nothing.
 */
export async function changeRecords<S extends StoreName>(
  stores: readonly S[],
  key: string,
  change: (records: Record<S, unknown>) => Record<S, unknown>,
): Promise<void> {
  const db = await openDatabase();
  return new Promise<void>((resolve, reject) => {
    const transaction = db.transaction(stores, "readwrite", { durability: "strict" });
    const records = {} as Record<S, unknown>;
    let failure: unknown;
    let read = 0;
    for (const name of stores) {
      const request = transaction.objectStore(name).get(key);
      request.onsuccess = () => {
        records[name] = request.result;
        if (++read < stores.length) return;
        let written: Record<S, unknown>;
        try {
          written = change(records);
        } catch (error) {
          failure = error;
          transaction.abort();
          return;
        }
        for (const store of stores)
          if (written[store] === undefined) transaction.objectStore(store).delete(key);
          else transaction.objectStore(store).put(written[store], key);
      };
    }
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(failure ?? transaction.error ?? new Error("the transaction was aborted"));
  });
}
