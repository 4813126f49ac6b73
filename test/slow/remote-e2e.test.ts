/**
 * Three machines on loopback, each a process with a home of its own: `epicwar serve` on the organiser's folder, two
 * players whose demo commanders play their sides (`epicwar demo --server`), and the organiser following the campaign
 * (`epicwar watch` with the host's token) through a proxy that cuts its feed every few events. They play Ashfall to
 * its end; then the organiser's audit is clean, its watch printed every event once and in order, and no order's salt
 * nor dice seed of a player was ever on the server (its folders, its request log) before the player revealed it.
 *
 * The winner is the one the players' commanders and the organiser's state report, not the local demo's: the host's
 * dice seeds are the server's own random draws, so initiative (and with it the campaign) differs from run to run.
 */
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PartySecrets } from "../../src/client/secrets.js";
import type { AuditReport } from "../../replays/audit-report.js";
import { tempDir } from "../support/tmp.js";
import { epicwar, epicwarDone, finishedCampaign, keptLine, ROOT, type CliProcess } from "./cli-process.js";
import { feedCutter, type FeedCutter } from "./feed-cutter.js";

const CAMPAIGN = "ashfall";
const PLAYERS = ["concord", "horde"] as const;
const SEATS = ["host", ...PLAYERS] as const;
type Seat = (typeof SEATS)[number];

/**
 * Every byte of every file under these folders, as text (LevelDB's too: salts and seeds are hex, so they show as is).
 * A file the running server renames or removes between the listing and the reading (a secrets file's temporary copy,
 * a LevelDB log compacted away) is skipped: its bytes are in the file it became, which the next round reads.
 */
async function everyByte(folders: string[]): Promise<string> {
  const texts: string[] = [];
  for (const folder of folders)
    for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []))
      if (entry.isFile()) texts.push(await readIfStillThere(join(entry.parentPath, entry.name)));
  return texts.join("\n");
}

async function readIfStillThere(path: string): Promise<string> {
  try {
    return (await readFile(path)).toString("latin1");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/** The secrets folder `epicwar join` made for this server in a seat's home (docs/remote-play.md). */
function secretsFolder(home: string, url: string): string {
  return join(home, ".epicwar", "servers", `127.0.0.1_${new URL(url).port}`, CAMPAIGN);
}

/** Every order salt and dice seed a player's secrets file holds now. */
async function playerSecrets(home: string, url: string, player: string): Promise<string[]> {
  const text = await readFile(join(secretsFolder(home, url), `${player}.json`), "utf8").catch(() => "{}");
  const kept = JSON.parse(text) as PartySecrets;
  return [...Object.values(kept.orders ?? {}).map((held) => held.salt), ...Object.values(kept.playerSeeds ?? {})];
}

describe("three machines on loopback", () => {
  it("two players' demo commanders and an organiser play Ashfall to its end; the server never holds a secret before its reveal; the cut feed loses nothing", async () => {
    const dir = await tempDir("epicwar-e2e-");
    const homes = Object.fromEntries(
      await Promise.all(
        ["server", ...SEATS].map(async (machine) => {
          const home = join(dir, machine);
          await mkdir(home);
          return [machine, home] as const;
        }),
      ),
    ) as Record<"server" | Seat, string>;
    const at = (machine: "server" | Seat) => ({ cwd: homes[machine], home: homes[machine] });
    const serverFolders = ["war", "war-secrets", "war-server"].map((folder) => join(homes.server, folder));

    // The organiser's machine: Ashfall set up in the folder (the players' seeds are not made there), then served.
    const setup = join(ROOT, "examples", "ashfall.setup.json");
    const created = await epicwarDone(["new", "--db", "war", "--setup", setup, "--as", "host"], at("server"));
    expect(created.code, created.stderr).toBe(0);
    const serve = epicwar(["serve", "--db", "war", "--port", "0"], at("server"));
    const running: CliProcess[] = [serve];
    let proxy: FeedCutter | undefined;
    try {
      const url = /^Serving war at (http:\/\/127\.0\.0\.1:\d+) /.exec(await serve.line(/^Serving war at /))![1]!;
      for (const seat of SEATS) {
        const link = (await keptLine(serve, at("server").cwd, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
        const joined = await epicwarDone(["join", link], at(seat));
        expect(joined.code, joined.stderr).toBe(0);
        expect(joined.stdout).toContain(`Seated as ${seat} in campaign ${CAMPAIGN}`);
      }
      const hostToken = (
        JSON.parse(await readFile(join(secretsFolder(homes.host, url), ".token.json"), "utf8")) as { token: string }
      ).token;

      // The organiser's feed goes through a proxy that cuts it after 3 to 7 events, over and over.
      proxy = await feedCutter(new URL(url), (cut) => 3 + (cut % 5));
      // The token `join` kept is for the server's own address; through the proxy it is given in the environment.
      const organiser = epicwar(["--server", proxy.url, "watch", "--from-seq", "0"], {
        ...at("host"),
        env: { EPICWAR_TOKEN: hostToken },
      });
      const players = PLAYERS.map((player) => epicwar(["--server", url, "demo"], at(player)));
      running.push(organiser, ...players);

      // While they play, round after round: a player's secret found in the server's files must be in the log read
      // after that search (revealed), or in the batch written while it ran (LevelDB has a batch in its files a moment
      // before a read sees it; the server writes one batch at a time). Each round also counts the secrets still held
      // back, to show the search ran while there were some.
      const readLog = async (after: number) => {
        const answer = await fetch(`${url}/campaigns/${CAMPAIGN}/log?after=${after}`, {
          headers: { authorization: `Bearer ${hostToken}` },
        });
        return (await answer.json()) as { seq: number; events: Array<{ at: string }> };
      };
      const batchAfter = async (seq: number) => {
        for (let reads = 0; reads < 1000; reads++) {
          const { events } = await readLog(seq);
          if (events.length > 0) return JSON.stringify(events.filter((event) => event.at === events[0]!.at));
        }
        throw new Error(`the log did not move on from event #${seq}`);
      };
      let finished = false;
      const end = organiser.line(/CampaignFinished/).finally(() => (finished = true));
      // Awaited once the players are done: a watch that ended early fails the test there, not as an unhandled rejection.
      end.catch(() => {});
      const playerFailed = () => players.some(({ child }) => child.exitCode !== null && child.exitCode !== 0);
      let roundsWithHeldSecrets = 0;
      while (!finished && !playerFailed()) {
        const secrets = (await Promise.all(PLAYERS.map((p) => playerSecrets(homes[p], url, p)))).flat();
        const onServer = await everyByte(serverFolders);
        const log = await readLog(0);
        const revealed = JSON.stringify(log.events);
        for (const secret of secrets.filter((secret) => onServer.includes(secret) && !revealed.includes(secret)))
          expect((await batchAfter(log.seq)).includes(secret), `${secret} on the server before its reveal`).toBe(true);
        if (secrets.some((secret) => !revealed.includes(secret))) roundsWithHeldSecrets++;
      }
      // Each player's commanders say how it ended, and stop; the organiser's state agrees.
      expect(await Promise.all(players.map((p) => p.exited)), players.map((p) => p.err()).join("")).toEqual([0, 0]);
      await end;
      expect(roundsWithHeldSecrets).toBeGreaterThan(0);
      const final = await finishedCampaign(url, at("host"), players);
      for (const player of players) {
        // Each told the campaign as it went: every turn once.
        expect(player.out.filter((line) => /^== Turn \d+ ==$/.test(line))).toHaveLength(final.turn);
      }

      // The organiser's audit of the whole campaign is clean: every order revealed as committed, every roll recomputed.
      const audit = await epicwarDone(["--server", url, "audit", "--json"], at("host"));
      expect(audit.code, audit.stderr).toBe(0);
      const report = JSON.parse(audit.stdout) as AuditReport;
      expect(report).toMatchObject({ ok: true, findings: [], pending: 0, events: final.seq });

      // The organiser's watch, cut again and again, printed every event once and in order: what log prints.
      expect(await organiser.stop()).toBe(0);
      expect(proxy.cuts()).toBeGreaterThan(20);
      const log = await epicwarDone(["--server", url, "log"], at("host"));
      expect(organiser.out).toEqual(log.stdout.trimEnd().split("\n"));

      // Each player's secrets were on its own machine only: not in the other seats' homes, nor in the request log;
      // once revealed they are in the server's log (so the search above could see them).
      const secrets = Object.fromEntries(
        await Promise.all(PLAYERS.map(async (p) => [p, await playerSecrets(homes[p], url, p)] as const)),
      );
      const onServer = await everyByte(serverFolders);
      for (const player of PLAYERS) {
        expect(secrets[player]!.length).toBeGreaterThan(0);
        expect(secrets[player]!.some((secret) => onServer.includes(secret))).toBe(true);
        const elsewhere = await everyByte(SEATS.filter((seat) => seat !== player).map((seat) => homes[seat]));
        const requestLog = serve.err();
        for (const secret of secrets[player]!) {
          expect(elsewhere, `${player}'s ${secret} in another seat's home`).not.toContain(secret);
          expect(requestLog, `${player}'s ${secret} in the request log`).not.toContain(secret);
        }
      }
      expect(serve.err()).not.toContain("ewt_");
    } finally {
      await Promise.all(running.slice(1).map((process) => process.stop()));
      await proxy?.close();
      expect(await serve.stop()).toBe(0);
    }
  }, 180_000);
});
