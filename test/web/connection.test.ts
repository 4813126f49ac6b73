/** The page's connection state (src/web/connection.ts): offline from the first request with no answer, back at the next answer. */
import { describe, expect, it } from "vitest";
import { ServerConnection, ServerError, type Transport } from "../../src/client/server.js";
import { Connection, clockTime, connectionWords, problemWords } from "../../src/web/connection.js";

describe("the page's connection", () => {
  it("is offline since the first request that got no answer, and back at the next answer", async () => {
    const times = [
      new Date(2026, 10, 28, 9, 41, 5),
      new Date(2026, 10, 28, 9, 41, 9),
      new Date(2026, 10, 28, 9, 42, 30),
    ];
    let down = false;
    const send: Transport = async () => {
      if (down) throw new TypeError("fetch failed");
      return { status: 200, text: "{}" };
    };
    const connection = new Connection(() => times.shift()!, send);
    const server = new ServerConnection("http://127.0.0.1:4100", undefined, connection.transport);
    await server.read("/campaigns");
    expect(connection.state.value).toEqual({ kind: "online" });
    down = true;
    const lost = await server.read("/campaigns").catch((error: unknown) => error);
    await server.read("/campaigns").catch(() => {});
    expect(connection.offline).toBe(true);
    expect(connectionWords(connection.state.value)).toBe(
      "Offline since 09:41:05: the server does not answer. Reconnecting…",
    );
    // In the page's words: the CLI's advice about --server means nothing in a browser.
    expect(problemWords(lost)).toMatch(/^The server did not answer \(it may be down or restarting\)/);
    expect(problemWords(lost)).not.toMatch(/--server/);
    down = false;
    await server.read("/campaigns");
    expect(connectionWords(connection.state.value)).toBe(
      "Back at 09:41:09 (offline from 09:41:05): the page has caught up.",
    );
  });

  it("an answer that refuses keeps its own message, and the server counts as reached", async () => {
    const connection = new Connection(
      () => new Date(),
      async () => ({ status: 401, text: '{"error":"unauthorized"}' }),
    );
    const server = new ServerConnection("http://127.0.0.1:4100", undefined, connection.transport);
    const refused = await server.read("/campaigns").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServerError);
    expect(problemWords(refused)).toBe((refused as Error).message);
    expect(connection.state.value.kind).toBe("online");
  });

  it("writes a time of day as HH:MM:SS", () => {
    expect(clockTime(new Date(2026, 0, 2, 3, 4, 5))).toBe("03:04:05");
  });
});
