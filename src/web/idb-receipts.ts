import { noReceipts, type KeptReceipts, type ReceiptBook } from "../client/receipts.js";
import { changeRecords, readRecord, STORES } from "./idb.js";

/**
 * A seat's receipts in this browser's IndexedDB (docs/web.md, docs/signatures.md): the server's key pinned, every
 * receipt with the entries its answer showed (the last is the latest checkpoint), and every command sent with no
 * receipt yet, as the CLI keeps them in `<secrets>/<campaign>/<seat>.receipts.json`. They outlast a reload, and each
 * change is a read-change-write in one transaction, so the tabs of one seat keep each other's.
 */
export class BrowserReceiptBook implements ReceiptBook {
  private readonly key: string;

  /** `campaign` as the secrets name it: the campaign's id, or "<campaign>~<branch>" for a branch. */
  constructor(campaign: string, seat: string) {
    this.key = `${campaign}/${seat}`;
  }

  async read(): Promise<KeptReceipts> {
    return (await readRecord<KeptReceipts>(STORES.receipts, this.key)) ?? noReceipts();
  }

  update(change: (kept: KeptReceipts) => void): Promise<void> {
    return changeRecords([STORES.receipts], this.key, (records) => {
      const kept = (records.receipts as KeptReceipts | undefined) ?? noReceipts();
      change(kept);
      return { receipts: kept };
    });
  }
}
