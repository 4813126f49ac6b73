/**
 * The players' side against a server, on a stub that follows the wire contract (stub-server.ts): commands sent with
 * the seq last read and sent again after a 409, refusals and access errors as the CLI prints them, the live feed
 * followed across dropped connections, the chores taken by the client, and no secret sent before its reveal.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toCurrent } from "../../events/index.js";
import { nextDecision } from "../../src/demo/play.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { FileSecrets, type PartySecrets } from "../../src/client/secrets.js";
import { fetchTransport, ServerConnection, ServerError } from "../../src/client/server.js";
import { nodeHttpTransport } from "../../src/client/http-transport.js";
import { Table } from "../../src/client/table.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { viewedContent, viewEvent } from "../../src/views/view.js";
import { logViewContext } from "../../src/views/log.js";
import { logLine } from "../../src/words/events.js";
import { runInProcess, show } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { runLive, until } from "./live.js";
import { StubServer, type StubOptions } from "./stub-server.js";

const stubs: StubServer[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function ashfall(options: StubOptions = {}): Promise<StubServer> {
  const stub = await StubServer.ashfall(options);
  stubs.push(stub);
  return stub;
}

/**
 * A player's seat: its own RemoteCampaign with its token, its own secrets folder, its Table. The Concord's requests go
 * over Node's http client (as the CLI sends them), the Horde's over fetch (as a browser does).
 */
async function player(stub: StubServer, seat: string) {
  const dir = await tempDir(`epicwar-${seat}-`);
  const transport = seat === "concord" ? nodeHttpTransport : fetchTransport;
  const handler = new RemoteCampaign(new ServerConnection(stub.url, stub.token(seat), transport));
  const table = new Table(handler, stub.campaign, {
    parties: new Set([seat]),
    secrets: new FileSecrets(dir, stub.campaign),
    random: sequenceRandomHex(`remote-${seat}`),
  });
  return { seat, dir, handler, table };
}

const commandPosts = (stub: StubServer) =>
  stub.requests.filter((r) => r.method === "POST" && r.url.endsWith("/commands"));

describe("RemoteCampaign against a server", () => {
  it("a command sent on a stale seq (409) is re-read and sent again with the new seq, once", async () => {
    const stub = await ashfall();
    const concord = await player(stub, "concord");
    const horde = await player(stub, "horde");
    const read = await concord.handler.state(stub.campaign);
    await horde.table.takeChores();
    const moved = (await stub.engine.head(stub.campaign)).seq;
    expect(moved).toBeGreaterThan(read.seq);
    const before = commandPosts(stub).length;
    const outcome = await concord.handler.execute(stub.campaign, [
      { actor: "concord", type: "CommitSeed", seedHash: "ab".repeat(32) },
    ]);
    expect(outcome.ok).toBe(true);
    const sent = commandPosts(stub)
      .slice(before)
      .map((r) => (JSON.parse(r.body) as { expectedSeq: number }).expectedSeq);
    expect(sent).toEqual([read.seq, moved]);
  });

  it("a rule's refusal (422), a malformed command (400) and another seat's actor (403) come back as refusals", async () => {
    const stub = await ashfall();
    const { handler } = await player(stub, "concord");
    await handler.state(stub.campaign);
    const rule = await handler.execute(stub.campaign, [{ actor: "concord", type: "ChooseFirst", first: "concord" }]);
    expect(rule).toMatchObject({ ok: false, index: 0, refusal: { kind: "rule" } });
    const malformed = await handler.execute(stub.campaign, [{ actor: "concord", type: "CommitSeed", seedHash: 7 }]);
    // Named as the engine names it for the command, not by its place in the request's batch.
    expect(malformed).toMatchObject({ ok: false, index: 0, refusal: { kind: "field", field: "seedHash" } });
    expect((malformed as { refusal: { message: string } }).refusal.message).not.toMatch(/commands\[0\]/);
    const forged = await handler.execute(stub.campaign, [
      { actor: "horde", type: "CommitSeed", seedHash: "ab".repeat(32) },
    ]);
    expect(forged).toMatchObject({
      ok: false,
      refusal: { kind: "field", field: "actor", message: "this token acts as concord" },
    });
  });

  it("a bad token (401) and a server that cannot be reached are errors that say so, never quoting the token", async () => {
    const stub = await ashfall();
    const wrong = new RemoteCampaign(new ServerConnection(stub.url, "ewt_not-a-token"));
    const refused = await wrong.state(stub.campaign).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServerError);
    expect((refused as ServerError).status).toBe(401);
    expect((refused as Error).message).toMatch(/does not accept this token \(401/);
    expect((refused as Error).message).not.toContain("ewt_not-a-token");
    const url = stub.url;
    await stub.close();
    stubs.splice(0);
    for (const transport of [fetchTransport, nodeHttpTransport]) {
      const gone = new RemoteCampaign(new ServerConnection(url, "ewt_concord-token", transport));
      await expect(gone.state("ashfall")).rejects.toThrow(
        /cannot reach the server at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      );
    }
  });

  it("two players' Tables play a full turn of Ashfall on their views; no order or salt is sent before its reveal", async () => {
    const stub = await ashfall();
    const seats = { concord: await player(stub, "concord"), horde: await player(stub, "horde") };
    for (const seat of Object.values(seats)) await seat.table.takeChores();
    for (let step = 0; ; step++) {
      expect(step).toBeLessThan(500);
      const state = await stub.engine.state(stub.campaign);
      if (state.turn > 1 || state.status !== "active") break;
      for (const seat of Object.values(seats)) await seat.table.takeChores();
      const decision = nextDecision(await stub.engine.state(stub.campaign));
      if (!decision) continue;
      const outcome = await seats[decision.actor as keyof typeof seats].table.submit(decision);
      expect(outcome, JSON.stringify(decision)).toMatchObject({ ok: true });
    }
    const types = stub.events.map((e) => e.type);
    expect(types).toContain("TurnEnded");
    expect(types.filter((t) => t === "OrderRevealed").length).toBeGreaterThan(0);
    // Every order this machine kept: its salt first reaches the server in the reveal, after its commitment was logged.
    for (const seat of Object.values(seats)) {
      const kept = JSON.parse(readFileSync(join(seat.dir, stub.campaign, `${seat.seat}.json`), "utf8")) as PartySecrets;
      const posts = commandPosts(stub);
      for (const held of Object.values(kept.orders ?? {})) {
        const first = posts.findIndex((r) => r.body.includes(held.salt));
        expect(first).toBeGreaterThanOrEqual(0);
        const commands = (JSON.parse(posts[first]!.body) as { commands: Array<{ type: string }> }).commands;
        expect(commands.map((c) => c.type)).toEqual(["RevealOrder"]);
      }
    }
    // No token ever in a URL.
    expect(stub.requests.some((r) => r.url.includes("ewt_"))).toBe(false);
  });
});

describe("the CLI against a server", () => {
  it("watch prints every event once and in order across dropped connections, and takes the seat's chores", async () => {
    const stub = await ashfall({ dropFeedEvery: 3 });
    const dirs = { concord: await tempDir("epicwar-concord-"), horde: await tempDir("epicwar-horde-") };
    const watches = Object.entries(dirs).map(([seat, dir]) =>
      runLive(["--server", stub.url, "watch", "--from-seq", "0", "--secrets", dir], {
        EPICWAR_TOKEN: stub.token(seat),
      }),
    );
    // Both players' seeds committed and given by their watches: the host then rolls initiative.
    await until(() => stub.events.some((e) => e.type === "InitiativeRolled"));
    const expected = () => {
      const context = logViewContext(stub.events.map(toCurrent));
      return stub.events.map((e) => logLine(viewedContent(viewEvent(e, "concord", context))));
    };
    await until(() => watches[0]!.out.length >= stub.events.length);
    for (const watch of watches) watch.stop.abort();
    const codes = await Promise.all(watches.map((w) => w.done));
    expect(codes).toEqual([0, 0]);
    // Drops after events are resumed quietly: nothing on stderr.
    expect(watches.map((w) => w.err.join(""))).toEqual(["", ""]);
    expect(watches[0]!.out).toEqual(expected());
    const given = stub.events.filter((e) => e.type === "PlayerSeedGiven").map((e) => e.actor);
    expect(given.sort()).toEqual(["concord", "horde"]);
    // Resumed after drops with the last seq printed.
    expect(stub.feedResumes.filter((id) => id !== undefined).length).toBeGreaterThan(2);
  });

  it("join keeps the token (mode 0600, not printed); state then plays with it, showing the seat's own view", async () => {
    const stub = await ashfall();
    const dir = await tempDir("epicwar-join-");
    const joined = await runInProcess(["join", `${stub.url}/join#invite-concord`, "--secrets", dir]);
    expect(joined.code, show(joined)).toBe(0);
    expect(joined.stdout).toContain("Seated as concord in campaign ashfall");
    expect(joined.stdout + joined.stderr).not.toContain("ewt_concord-joined");
    const tokenFile = join(dir, "ashfall", ".token.json");
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    // --server after the command's name works as well as before it.
    const state = await runInProcess(["state", "--server", stub.url, "--secrets", dir]);
    expect(state.code, show(state)).toBe(0);
    expect(state.stdout).toContain("Ashfall");
    expect(state.stdout).toContain("(you)");
    const again = await runInProcess(["join", `${stub.url}/join#invite-concord`, "--secrets", dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/used already/);
  });

  it("clear errors: a bad token, another seat's line, a local-only command and an unreachable server", async () => {
    const stub = await ashfall();
    const dir = await tempDir("epicwar-cli-");
    const bad = await runInProcess(["--server", stub.url, "--token", "ewt_wrong", "log", "--secrets", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/does not accept this token \(401/);
    expect(bad.stdout + bad.stderr).not.toContain("ewt_wrong");
    const line = JSON.stringify({ actor: "horde", type: "CommitSeed" });
    const other = await runInProcess(["--server", stub.url, "apply", "-", "--secrets", dir], line, {
      env: { EPICWAR_TOKEN: stub.token("concord") },
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("this machine acts as concord, and this line is horde's");
    const local = await runInProcess(["--server", stub.url, "verify"]);
    expect(local.stderr).toMatch(/verify works on a local database/);
    const unknown = await runInProcess(["--server", stub.url, "--token=x", "teleport"]);
    expect(unknown.stderr).toMatch(/unknown command 'teleport'/);
    const url = stub.url;
    await stub.close();
    stubs.splice(0);
    const gone = await runInProcess(["--server", url, "state", "--secrets", dir], "", {
      env: { EPICWAR_TOKEN: "ewt_concord-token", EPICWAR_OFFLINE_TIMEOUT: "0.5" },
    });
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/lost the server at \S+ \(ECONNREFUSED\)/);
  });

  it("log and apply against the server print what the local commands print, in the seat's view", async () => {
    const stub = await ashfall();
    const dir = await tempDir("epicwar-cli-");
    const env = { EPICWAR_SERVER: stub.url, EPICWAR_TOKEN: stub.token("concord") };
    const applied = await runInProcess(["apply", "-", "--secrets", dir], "", { env });
    expect(applied.code, show(applied)).toBe(0);
    expect(applied.stdout).toMatch(/concord commits to its dice seed for turn 1/);
    const log = await runInProcess(["log", "--secrets", dir], "", { env });
    expect(log.code, show(log)).toBe(0);
    const context = logViewContext(stub.events.map(toCurrent));
    expect(log.stdout.trimEnd().split("\n")).toEqual(
      stub.events.map((e) => logLine(viewedContent(viewEvent(e, "concord", context)))),
    );
  });
});
