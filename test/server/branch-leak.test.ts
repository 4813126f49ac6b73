/**
 * Branches leak nothing (docs/replays.md): a branch forked in the middle of a turn, after orders were committed and
 * dice drawn, is played to its end through the server by the two players' clients, while every byte each seat
 * receives (every HTTP answer, every feed message, on both lines) is kept. None holds a secret of the main line's turn
 * under way at the fork (the host's seed, each hidden order's salt, each player's seed not yet given), nor does the
 * branch's log. The main line then plays on to its end, and both lines audit clean.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { showRawLog } from "../../src/cli/commands/show.js";
import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { auditStream } from "../../replays/audit-load.js";
import { PARENT_LINE_ROLL } from "../../replays/audit-report.js";
import { branchStream } from "../../replays/branches.js";
import { MemorySecrets } from "../../src/client/party-secrets.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { FileSecrets } from "../../src/client/secrets.js";
import { fetchTransport, redeemInvite, ServerConnection, type Transport } from "../../src/client/server.js";
import { Table, takeChoresInTurn } from "../../src/client/table.js";
import { nextDecision } from "../../src/demo/play.js";
import { waitingFor } from "../../src/words/waiting.js";
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "../remote/served-ashfall.js";

const PLAYERS = ["concord", "horde"] as const;
const SEATS = [HOST, ...PLAYERS];
const BRANCH = "whatif";
const VERIFIER = fileURLToPath(new URL("../../tools/verify_log.py", import.meta.url));

/** Every byte a seat received: its HTTP answers' bodies and its feeds' messages, on either line. */
const received = new Map<string, string[]>(SEATS.map((seat) => [seat, []]));

/** A transport that keeps every answer's body for its seat. */
const recording =
  (seat: string): Transport =>
  async (request) => {
    const answer = await fetchTransport(request);
    received.get(seat)!.push(answer.text);
    return answer;
  };

/** Follows a seat's feed of a line from its first event, keeping every chunk it receives, until stopped. */
function followFeed(url: string, token: string, seat: string, campaign: string, branch?: string) {
  const controller = new AbortController();
  const query = branch === undefined ? "" : `?branch=${branch}`;
  const done = (async () => {
    const response = await fetch(`${url}/campaigns/${campaign}/feed${query}`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        received.get(seat)!.push(decoder.decode(value));
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return { stop: () => controller.abort(), done };
}

interface Secret {
  what: string;
  text: string;
}

describe("a branch forked in the middle of a turn, played through the server", () => {
  it("receives no secret of the main line's turn, on either line, and both lines audit clean", async () => {
    const served = await serveAshfall();
    const { engine, url, campaign, invites, folders } = served;
    const stream = branchStream(campaign, BRANCH);
    const feeds: Array<ReturnType<typeof followFeed>> = [];
    try {
      const tokens = new Map<string, string>();
      for (const seat of SEATS) tokens.set(seat, (await redeemInvite(url, invites[seat]!)).token);
      const connection = (seat: string) => new ServerConnection(url, tokens.get(seat)!, recording(seat));
      const secretsDirs = new Map<string, string>();
      for (const player of PLAYERS) secretsDirs.set(player, await tempDir(`epicwar-${player}-`));
      const secretsOf = (player: string, line: string) => new FileSecrets(secretsDirs.get(player)!, line);
      // The organiser's commands are signed by the server, which holds the host's key with its seeds (D2).
      const organiser = (branch?: string) =>
        new Table(new RemoteCampaign(connection(HOST), branch, branch !== undefined), campaign, {
          parties: new Set([HOST]),
          secrets: new MemorySecrets(),
          chores: false,
          signing: false,
        });
      type AnyTable = {
        submit(input: unknown): Promise<{ ok: boolean }>;
        takeChores(onEvents: () => void): Promise<unknown>;
      };
      const mainTables = new Map<string, AnyTable>();
      const players = (line: string, branch?: string) =>
        new Map<string, AnyTable>(
          PLAYERS.map((player) => [
            player,
            new Table(new RemoteCampaign(connection(player), branch, branch !== undefined), campaign, {
              parties: new Set([player]),
              secrets: secretsOf(player, line),
              ...(branch === undefined ? {} : { line }),
            }) as AnyTable,
          ]),
        );
      for (const [player, table] of players(campaign)) mainTables.set(player, table);
      mainTables.set(HOST, organiser());
      for (const seat of SEATS) feeds.push(followFeed(url, tokens.get(seat)!, seat, campaign));

      /** Plays a line with the demo's commanders, each decision sent by its party's client, until `done`. */
      const play = async (line: string, tables: Map<string, AnyTable>, done: (s: CampaignState) => boolean) => {
        const seats = PLAYERS.map((player) => tables.get(player)!);
        for (let step = 0; ; step++) {
          expect(step, "the line plays out within 3000 decisions").toBeLessThan(3000);
          await takeChoresInTurn(seats);
          const state = await engine.state(line);
          if (done(state)) return state;
          const decision = nextDecision(state);
          if (!decision) throw new Error(`${line} waits on no decision at seq ${state.seq}: ${waitingFor(state)}`);
          const outcome = await tables.get(decision.actor)!.submit(decision);
          expect(outcome.ok, `${decision.actor}'s ${decision.type} on ${line}: ${JSON.stringify(outcome)}`).toBe(true);
        }
      };

      // Main: into turn 1's Action phase, until each player holds an order committed and hidden, dice drawn.
      const hiddenOf = (state: CampaignState) =>
        Object.values(state.turnState?.activations ?? {}).filter((activation) => activation.order === null);
      const atFork = await play(campaign, mainTables, (state) => {
        const hidden = hiddenOf(state);
        return state.phase === "action" && PLAYERS.every((player) => hidden.some((a) => a.player === player));
      });
      expect(atFork.turnState!.diceUsed).toBeGreaterThan(0);

      // The main line's secrets of that turn, as their holders keep them.
      const turn = atFork.turn;
      const secrets: Secret[] = [];
      const hostSeed = await new FileSecrets(folders[1]!, campaign).hostSeed(turn);
      expect(hostSeed).toMatch(/^[0-9a-f]{64}$/);
      secrets.push({ what: `the host's seed for turn ${turn}`, text: hostSeed! });
      for (const { army, player } of hiddenOf(atFork)) {
        const held = await secretsOf(player, campaign).order(player, turn, army);
        expect(held, `${player} holds ${army}'s order`).toBeDefined();
        secrets.push({ what: `${player}'s salt for ${army}'s ${held!.order}`, text: held!.salt });
      }
      for (const player of PLAYERS)
        for (const seedTurn of [turn, turn + 1]) {
          const seed = await secretsOf(player, campaign).playerSeed(player, seedTurn);
          if (seed !== undefined && atFork.turnState!.playerSeeds[player] !== seed)
            secrets.push({ what: `${player}'s seed for turn ${seedTurn}, not yet given`, text: seed });
        }
      const leaks = (text: string) => secrets.filter((secret) => text.includes(secret.text)).map((s) => s.what);

      // The organiser forks the main line at its head, as the page does.
      const forked = await fetch(`${url}/campaigns/${campaign}/branches`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.get(HOST)!}`, "content-type": "application/json" },
        body: JSON.stringify({ name: BRANCH, seq: atFork.seq }),
      });
      received.get(HOST)!.push(await forked.clone().text());
      expect(forked.status, await forked.text()).toBe(201);
      for (const seat of SEATS) feeds.push(followFeed(url, tokens.get(seat)!, seat, campaign, BRANCH));

      // Each player's client plays the branch with its own secrets for it: only its seat key comes along (D2).
      const branchTables = players(stream, BRANCH);
      branchTables.set(HOST, organiser(BRANCH));
      for (const player of PLAYERS)
        await secretsOf(player, stream).keepSeatKey(player, (await secretsOf(player, campaign).seatKey(player))!);
      const branchEnd = await play(stream, branchTables, (state) => state.status === "finished");

      const branchLog = await engine.store.readAll(stream);
      const own = branchLog.slice(atFork.seq);
      expect(own[0]).toMatchObject({ type: "LineForked", data: { turn, fromDie: atFork.turnState!.diceUsed } });
      expect(own.filter((e) => e.type === "OrderRecommitted")).toHaveLength(hiddenOf(atFork).length);
      const ended = own.find((e) => e.type === "TurnEnded" && (e.data as { turn: number }).turn === turn)!;
      const branchSeed = (ended.data as { hostSeed: string }).hostSeed;
      expect(branchEnd.status).toBe("finished");
      expect(leaks(JSON.stringify(branchLog))).toEqual([]);
      for (const seat of SEATS) {
        const bytes = received.get(seat)!.join("");
        // The seat did receive the branch's play, its own host seed of that turn included.
        expect(bytes).toContain(branchSeed);
        expect(leaks(bytes), `what ${seat} received`).toEqual([]);
      }

      // The main line plays on from where it stopped, to its end: its secrets are revealed there, in their time.
      const mainEnd = await play(campaign, mainTables, (state) => state.status === "finished");
      expect(mainEnd.status).toBe("finished");
      const mainBytes = received.get(PLAYERS[0])!.join("");
      expect(leaks(mainBytes)).toContain(`the host's seed for turn ${turn}`);
      expect(leaks(JSON.stringify(await engine.store.readAll(stream)))).toEqual([]);

      const mainAudit = await auditStream(engine.store, campaign);
      expect(mainAudit.findings).toEqual([]);
      expect(mainAudit.ok).toBe(true);
      const branchAudit = await auditStream(engine.store, stream);
      expect(branchAudit.findings).toEqual([]);
      expect(branchAudit.ok).toBe(true);
      // The reference verifier agrees, on either line as stored: the branch's rolls before its fork left to the parent.
      for (const line of [campaign, stream]) {
        const raw: string[] = [];
        await showRawLog(engine.store, line, (text) => raw.push(text));
        const verified = spawnSync("python3", [VERIFIER, "-"], { input: raw.join("\n") + "\n", encoding: "utf8" });
        expect(verified.status, verified.stdout + verified.stderr).toBe(0);
        expect(verified.stdout).toContain("OK: every check passed");
        if (line === stream) expect(verified.stdout).toMatch(/rolls drawn on the parent line before a fork: [1-9]/);
      }
      const forkedTurn = branchAudit.turns.find((t) => t.turn === turn)!;
      for (const roll of forkedTurn.rolls) expect(roll.status).toBe(roll.seq <= atFork.seq ? "pending" : "ok");
      expect(forkedTurn.rolls.filter((roll) => roll.verdict === PARENT_LINE_ROLL).length).toBeGreaterThan(0);
    } finally {
      for (const feed of feeds) feed.stop();
      await Promise.allSettled(feeds.map((feed) => feed.done));
      await served.close();
    }
  }, 240_000);
});
