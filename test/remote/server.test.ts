/**
 * The players' client against the real campaign server, in this process and listening on a port of its own: two
 * players join with their invite links into separate secrets folders and play one full turn of the Ashfall demo
 * through their Tables (RemoteCampaign), and no file of the server's, nor its request log, ever holds an order or a
 * salt a player has not revealed.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOST } from "../../events/common.js";
import { nextDecision } from "../../src/demo/play.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { FileSecrets, type PartySecrets } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table } from "../../src/client/table.js";
import { runInProcess, show } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "./served-ashfall.js";
import { runLive, until, type LiveRun } from "./live.js";

const PLAYERS = ["concord", "horde"] as const;

/** Every byte of every file under these folders, as text (LevelDB's files too: a salt is hex, so it shows as is). */
async function everyByte(folders: string[]): Promise<string> {
  const texts: string[] = [];
  for (const folder of folders) {
    for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])) {
      if (entry.isFile()) texts.push((await readFile(join(entry.parentPath, entry.name))).toString("latin1"));
    }
  }
  return texts.join("\n");
}

describe("the players' client against the campaign server", () => {
  it("two players' Tables play a full turn of Ashfall; the server's folders never hold an unrevealed order or salt", async () => {
    const served = await serveAshfall();
    const { folders: serverFolders, engine, operatorToken, requestLog, url, campaign, invites } = served;
    try {
      // Each player joins from its own machine: its own secrets folder, the token kept there.
      const players = await Promise.all(
        PLAYERS.map(async (player) => {
          const secrets = await tempDir(`epicwar-${player}-`);
          const joined = await runInProcess(["join", `${url}/join#${invites[player]}`, "--secrets", secrets]);
          expect(joined.code, show(joined)).toBe(0);
          const { token } = JSON.parse(await readFile(join(secrets, campaign, ".token.json"), "utf8")) as {
            token: string;
          };
          const table = new Table(new RemoteCampaign(new ServerConnection(url, token)), campaign, {
            parties: new Set([player]),
            secrets: new FileSecrets(secrets, campaign),
            random: sequenceRandomHex(`served-${player}`),
          });
          return { player, secrets, table };
        }),
      );
      const heldOrders = async () => {
        const held: Array<{ player: string; key: string; order: string; salt: string }> = [];
        for (const { player, secrets } of players) {
          const text = await readFile(join(secrets, campaign, `${player}.json`), "utf8").catch(() => "{}");
          for (const [key, kept] of Object.entries((JSON.parse(text) as PartySecrets).orders ?? {}))
            held.push({ player, key, ...kept });
        }
        return held;
      };
      /** The orders kept on the players' machines whose reveal is not in the log yet: no server file may hold them. */
      const checkServerHoldsNoHiddenOrder = async () => {
        const state = await engine.state(campaign);
        const hidden = (await heldOrders()).filter(({ key }) => {
          const [turn, army] = key.split("/");
          return Number(turn) === state.turn && state.turnState?.activations[army!]?.order === null;
        });
        const bytes = await everyByte(serverFolders);
        for (const { key, salt } of hidden) expect(bytes.includes(salt), `${key}'s salt on the server`).toBe(false);
        return hidden.length;
      };

      let checkedWhileHidden = 0;
      for (let step = 0; ; step++) {
        expect(step).toBeLessThan(500);
        for (const { table } of players) await table.takeChores();
        const state = await engine.state(campaign);
        if (state.turn > 1 || state.status !== "active") break;
        const decision = nextDecision(state);
        if (!decision) continue;
        expect(decision.actor).not.toBe(HOST);
        const seat = players.find((p) => p.player === decision.actor)!;
        const outcome = await seat.table.submit(decision);
        expect(outcome, JSON.stringify(decision)).toMatchObject({ ok: true });
        if (decision.type === "ActivateArmy") checkedWhileHidden += await checkServerHoldsNoHiddenOrder();
      }
      const events = await engine.store.readAll(campaign);
      expect(events.map((e) => e.type)).toContain("TurnEnded");
      expect(events.filter((e) => e.type === "OrderRevealed").length).toBeGreaterThan(0);
      expect(checkedWhileHidden).toBeGreaterThan(0);
      // The search does see the log: once revealed, the salts are in the server's files.
      const revealed = await everyByte(serverFolders);
      expect((await heldOrders()).some(({ salt }) => revealed.includes(salt))).toBe(true);
      // Every order was revealed in the log by the turn's end; the request log never held one, nor a token.
      const log = requestLog.join("\n");
      for (const { salt } of await heldOrders()) expect(log).not.toContain(salt);
      expect(log).not.toContain("ewt_");

      // The players' CLI reads the campaign as the local commands show it, in the player's view.
      const concord = players[0]!;
      const read = (...args: string[]) => runInProcess(["--server", url, ...args, "--secrets", concord.secrets]);
      const state = await read("state");
      expect(state.code, show(state)).toBe(0);
      expect(state.stdout).toMatch(/turn 2, action phase/);
      const timeline = await read("timeline");
      expect(timeline.code, show(timeline)).toBe(0);
      expect(timeline.stdout).toMatch(/^Turn 1 End: /m);
      const audit = await read("audit");
      expect(audit.code, show(audit)).toBe(0);
      const turn = await read("audit", "--turn", "1", "--json");
      expect(turn.code, show(turn)).toBe(0);
      expect((JSON.parse(turn.stdout) as { turns: Array<{ turn: number }> }).turns.map((t) => t.turn)).toEqual([1]);
      const later = await read("audit", "--turn", "9");
      expect(later).toMatchObject({ code: 1, stderr: "epicwar: turn 9 of ashfall has not started\n" });
      const logged = await read("log", "--json");
      expect(logged.stdout.trimEnd().split("\n")).toHaveLength((await engine.store.head(campaign)).seq);

      // The organiser plays through the same CLI; its client takes no step (the server takes the host's itself).
      const organiser = await tempDir("epicwar-organiser-");
      expect((await runInProcess(["join", `${url}/join#${invites[HOST]}`, "--secrets", organiser])).code).toBe(0);
      const idle = await runInProcess(["--server", url, "apply", "-", "--secrets", organiser]);
      expect(idle, show(idle)).toMatchObject({ code: 0, stdout: "", stderr: "" });
      const operator = await runInProcess(["--server", url, "state", "--secrets", organiser], "", {
        env: { EPICWAR_TOKEN: operatorToken },
      });
      expect(operator.code).toBe(1);
      expect(operator.stderr).toMatch(/operator token, which plays no seat/);
      expect(operator.stdout + operator.stderr).not.toContain(operatorToken);
    } finally {
      await served.close();
    }
  });

  it("each player's watch follows the feed, takes its seat's chores and prints what log prints", async () => {
    const served = await serveAshfall();
    const watches: Array<LiveRun & { secrets: string }> = [];
    try {
      for (const player of PLAYERS) {
        const secrets = await tempDir(`epicwar-${player}-`);
        const joined = await runInProcess([
          "join",
          `${served.url}/join#${served.invites[player]}`,
          "--secrets",
          secrets,
        ]);
        expect(joined.code, show(joined)).toBe(0);
        const watch = runLive(["--server", served.url, "watch", "--from-seq", "0", "--secrets", secrets]);
        watches.push({ ...watch, secrets });
      }
      // Both players' seeds committed and given by their watches: the server then rolls initiative.
      const events = () => served.engine.store.readAll(served.campaign);
      await until(async () => (await events()).some((e) => e.type === "InitiativeRolled"));
      const seq = (await served.engine.store.head(served.campaign)).seq;
      await until(() => watches.every((w) => w.out.length >= seq));
      for (const watch of watches) watch.stop.abort();
      expect(await Promise.all(watches.map((w) => w.done))).toEqual([0, 0]);
      expect(watches.map((w) => w.err.join(""))).toEqual(["", ""]);
      const log = await runInProcess(["--server", served.url, "log", "--secrets", watches[0]!.secrets]);
      expect(watches[0]!.out).toEqual(log.stdout.trimEnd().split("\n"));
    } finally {
      for (const watch of watches) watch.stop.abort();
      await served.close();
    }
  });

  it("demo --server plays a player's seat only: the organiser's token and --advanced are refused", async () => {
    const served = await serveAshfall();
    try {
      const secrets = await tempDir("epicwar-organiser-");
      expect(
        (await runInProcess(["join", `${served.url}/join#${served.invites[HOST]}`, "--secrets", secrets])).code,
      ).toBe(0);
      const before = (await served.engine.store.head(served.campaign)).seq;
      const demo = (...more: string[]) => runInProcess(["--server", served.url, "demo", "--secrets", secrets, ...more]);
      const organiser = await demo();
      expect(organiser.code).toBe(1);
      expect(organiser.stderr).toMatch(/the organiser's \(host\): the demo's commanders play a player's side/);
      expect((await demo("--advanced")).stderr).toMatch(/--advanced sets up Emberfall in a local folder/);
      // Nothing was played: the campaign waits for the players' seed commitments as it did.
      expect((await served.engine.store.head(served.campaign)).seq).toBe(before);
    } finally {
      await served.close();
    }
  });

  it("demo --server only when given on the command line; the local demo refuses --secrets", async () => {
    const dir = await tempDir("epicwar-local-demo-");
    const local = await runInProcess(["demo", "--db", join(dir, "db"), "--secrets", dir]);
    expect(local).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--campaign and --secrets are for demo --server/),
    });
    const fromEnv = await runInProcess(["demo", "--db", join(dir, "db")], "", {
      env: { EPICWAR_SERVER: "http://127.0.0.1:9" },
    });
    expect(fromEnv.code, show(fromEnv)).toBe(0);
    expect(fromEnv.stdout).toMatch(/win the campaign in turn|ends in a draw/);
  });
});
