/**
 * A TCP proxy in front of the campaign server that cuts every connection carrying a live feed (GET .../feed) after a
 * few events, in the middle of the next event's lines: what a flaky network does to a player's `watch`. Other
 * requests pass through untouched, on their own connections or on a feed's before it started.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

export interface FeedCutter {
  /** The proxy's URL, for the client's --server. */
  url: string;
  /** How many feed connections it has cut so far. */
  cuts: () => number;
  close: () => Promise<void>;
}

/** The proxy to `target` (host:port); the n-th feed connection is cut after `eventsBeforeCut(n)` events. */
export async function feedCutter(target: URL, eventsBeforeCut: (cut: number) => number): Promise<FeedCutter> {
  let cuts = 0;
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      // A cut's reset, or the client giving up, is the point of the proxy: not an error of the test.
      socket.on("error", () => {});
    }
    let feedStarted = false;
    let eventsLeft = 0;
    client.on("data", (chunk: Buffer) => {
      if (!feedStarted && /^GET \S*\/feed\b/m.test(chunk.toString("latin1"))) {
        feedStarted = true;
        eventsLeft = eventsBeforeCut(cuts);
      }
      server.write(chunk);
    });
    server.on("data", (chunk: Buffer) => {
      if (!feedStarted) return void client.write(chunk);
      const text = chunk.toString("latin1");
      // The position of each event's `id:` line in this chunk: the cut falls just inside the event after the last allowed.
      for (const match of text.matchAll(/^id: /gm)) {
        if (eventsLeft-- > 0) continue;
        client.write(chunk.subarray(0, match.index + 2));
        cuts++;
        client.destroy();
        server.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("end", () => server.end());
    server.on("end", () => client.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    cuts: () => cuts,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
