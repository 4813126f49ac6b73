/** The main thread's side of the feed viewers' worker (bench/feed-viewers.ts): one request and its answer at a time. */
import { Worker } from "node:worker_threads";
import type { EndMessage, ViewersAnswer, ViewersReport, WatchMessage } from "./feed-viewers.js";

export class FeedViewers {
  private readonly worker = new Worker(new URL("./feed-viewers.js", import.meta.url));

  private ask(message: WatchMessage | EndMessage): Promise<ViewersAnswer> {
    return new Promise((resolve, reject) => {
      const answered = (answer: ViewersAnswer) => {
        if (answer.campaign !== message.campaign) return;
        this.worker.off("message", answered);
        this.worker.off("error", reject);
        if (answer.kind === "failed") reject(new Error(`the feed viewers of ${answer.campaign}: ${answer.message}`));
        else resolve(answer);
      };
      this.worker.on("message", answered);
      this.worker.once("error", reject);
      this.worker.postMessage(message);
    });
  }

  /** Opens a feed of the campaign for each viewer's token; resolves once every one is open. */
  async watch(url: string, campaign: string, viewers: WatchMessage["viewers"]): Promise<void> {
    await this.ask({ kind: "watch", url, campaign, viewers });
  }

  /** Waits for every viewer to receive the campaign up to `head`, then closes their feeds: what each received. */
  async end(campaign: string, head: number): Promise<ViewersReport> {
    return (await this.ask({ kind: "end", campaign, head })) as ViewersReport;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
