/**
 * Viewers of a campaign's live feed (GET /campaigns/:id/feed, Server-Sent Events), run in a worker thread so that
 * reading a hundred streams does not take the thread of the server or of the players it measures.
 *
 * Messages in: `watch` opens one feed per token and answers `watching` once every feed has answered 200; `end` says
 * the campaign's last seq, and is answered with a `report` once every viewer has received it (or after END_WAIT_MS),
 * the feeds then closed. Each viewer parses every event as a client would and notes when it arrived.
 */
import { request, type ClientRequest } from "node:http";
import { parentPort } from "node:worker_threads";

/** How long a viewer may lag behind the campaign's last event before it is reported as incomplete. */
const END_WAIT_MS = 30_000;

export interface WatchMessage {
  kind: "watch";
  url: string;
  campaign: string;
  viewers: Array<{ seat: string; token: string }>;
}

export interface EndMessage {
  kind: "end";
  campaign: string;
  /** The campaign's last seq: every viewer must receive 1 to head, each once, in order. */
  head: number;
}

export interface ViewerOutcome {
  seat: string;
  /** Events received, repeats included. */
  received: number;
  /** Seqs of 1..head never received. */
  missing: number;
  /** Events received again, or after a later one. */
  outOfOrder: number;
  /** Every event 1..head received exactly once, in seq order. */
  complete: boolean;
  /** When its last event arrived (ms since the epoch), null if none did. */
  lastReceivedAt: number | null;
}

export interface ViewersReport {
  kind: "report";
  campaign: string;
  viewers: ViewerOutcome[];
  /** For each seq (index seq - 1): when the last viewer received it (ms since the epoch), null if one never did. */
  lastArrival: Array<number | null>;
}

export type ViewersAnswer =
  { kind: "watching"; campaign: string } | ViewersReport | { kind: "failed"; campaign: string; message: string };

interface Viewer {
  seat: string;
  seqs: number[];
  lastReceivedAt: number | null;
}

interface Watched {
  viewers: Viewer[];
  connections: ClientRequest[];
  lastArrival: number[];
  /** Called whenever a viewer receives events: the end waits on it. */
  onProgress: () => void;
}

const watched = new Map<string, Watched>();

/** Opens one feed; resolves once the server has answered 200. */
function openFeed(url: string, campaign: string, token: string, watch: Watched, viewer: Viewer) {
  return new Promise<ClientRequest>((resolve, reject) => {
    let buffer = "";
    const connection = request(`${url}/campaigns/${campaign}/feed`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      agent: false,
    });
    connection.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`feed of ${campaign}: ${response.statusCode}`));
      resolve(connection);
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const now = Date.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue;
          const id = Number(/^id: (\d+)$/m.exec(block)?.[1]);
          const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { seq: number };
          if (data.seq !== id) throw new Error(`an event's data says seq ${data.seq} under id ${id}`);
          viewer.seqs.push(id);
          viewer.lastReceivedAt = now;
          watch.lastArrival[id - 1] = Math.max(watch.lastArrival[id - 1] ?? 0, now);
        }
        watch.onProgress();
      });
    });
    connection.on("error", (error) => reject(error));
    connection.end();
  });
}

async function watch({ url, campaign, viewers }: WatchMessage): Promise<void> {
  const entry: Watched = { viewers: [], connections: [], lastArrival: [], onProgress: () => {} };
  watched.set(campaign, entry);
  await Promise.all(
    viewers.map(async ({ seat, token }) => {
      const viewer: Viewer = { seat, seqs: [], lastReceivedAt: null };
      entry.viewers.push(viewer);
      entry.connections.push(await openFeed(url, campaign, token, entry, viewer));
    }),
  );
  parentPort!.postMessage({ kind: "watching", campaign } satisfies ViewersAnswer);
}

function outcome(viewer: Viewer, head: number): ViewerOutcome {
  const distinct = new Set(viewer.seqs.filter((seq) => seq >= 1 && seq <= head));
  let outOfOrder = 0;
  viewer.seqs.forEach((seq, i) => {
    if (i > 0 && seq <= viewer.seqs[i - 1]!) outOfOrder++;
  });
  const complete = viewer.seqs.length === head && viewer.seqs.every((seq, i) => seq === i + 1);
  return {
    seat: viewer.seat,
    received: viewer.seqs.length,
    missing: head - distinct.size,
    outOfOrder,
    complete,
    lastReceivedAt: viewer.lastReceivedAt,
  };
}

async function end({ campaign, head }: EndMessage): Promise<void> {
  const entry = watched.get(campaign)!;
  const caughtUp = () => entry.viewers.every((viewer) => (viewer.seqs[viewer.seqs.length - 1] ?? 0) >= head);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, END_WAIT_MS);
    entry.onProgress = () => {
      if (caughtUp()) {
        clearTimeout(timer);
        resolve();
      }
    };
    entry.onProgress();
  });
  for (const connection of entry.connections) connection.destroy();
  watched.delete(campaign);
  parentPort!.postMessage({
    kind: "report",
    campaign,
    viewers: entry.viewers.map((viewer) => outcome(viewer, head)),
    lastArrival: Array.from({ length: head }, (_, i) => entry.lastArrival[i] ?? null),
  } satisfies ViewersAnswer);
}

parentPort!.on("message", (message: WatchMessage | EndMessage) => {
  (message.kind === "watch" ? watch(message) : end(message)).catch((error: unknown) =>
    parentPort!.postMessage({
      kind: "failed",
      campaign: message.campaign,
      message: (error as Error).message,
    } satisfies ViewersAnswer),
  );
});
