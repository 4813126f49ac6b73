import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { replaceDurably } from "./secrets.js";
import { noReceipts, type KeptReceipts, type ReceiptBook } from "./receipts.js";

/**
 * A seat's receipts in a file beside its secrets (`<secrets>/<campaign>/<seat>.receipts.json`, mode 0600), replaced
 * durably on every change, one change at a time.
 */
export class FileReceiptBook implements ReceiptBook {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async read(): Promise<KeptReceipts> {
    const text = await readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    return text === undefined ? noReceipts() : (JSON.parse(text) as KeptReceipts);
  }

  update(change: (kept: KeptReceipts) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const kept = await this.read();
      change(kept);
      const folder = dirname(this.path);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await replaceDurably(folder, this.path, `${JSON.stringify(kept)}\n`);
    });
    this.queue = next.catch(() => {});
    return next;
  }
}
