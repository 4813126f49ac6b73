/**
 * Playing through the CLI end to end, each run in this process through `run` (src/cli/run.ts), on a real LevelDB
 * in a temp folder: the demo campaign to a victory, then hidden orders given in the clear, kept in the parties'
 * secrets files, and revealed from them; a lost secrets file; and a machine acting as one player.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import canonicalizeModule from "canonicalize";
import { beforeAll, describe, expect, it } from "vitest";
import {
  cli,
  expectOneLineError,
  FIXTURES,
  nonEmptyLines,
  ok,
  parseLog,
  scratchDir,
  show,
  writeCommands,
  type Run,
} from "./support/campaign-cli.js";

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;
const READY = join(FIXTURES, "ready.json");

type Square = [number, number];
interface ArmyJson {
  id: string;
  player: string;
  status: string;
  at: Square | null;
  sinceTurn: number;
  commander: { formation: string; unitType: string };
}
interface StateJson {
  campaign: string;
  status: string;
  turn: number;
  phase: string;
  result: { winner: string | null; turn: number } | null;
  setup: { players: Array<{ id: string; name: string }> };
  armies: Record<string, ArmyJson>;
  turnState: {
    initiativeWinner: string | null;
    first: string | null;
    lastActivator: string | null;
    activations: Record<string, { order: string | null; engaged: boolean }>;
  } | null;
  heldOrders?: Record<string, string>;
}

interface SecretsFile {
  orders?: Record<string, { order: string; salt: string }>;
}

const stateJson = async (db: string, ...more: string[]) =>
  JSON.parse(await ok(["state", "--db", db, "--json", ...more])) as StateJson;
const logJson = (db: string) => ok(["log", "--db", db, "--json"]);
const readSecrets = async (dir: string, campaign: string, party: string) =>
  JSON.parse(await readFile(join(dir, campaign, `${party}.json`), "utf8")) as SecretsFile;

/** T5, restated from docs/secrets.md: SHA-256 over the canonical JSON of campaign, turn, army, order and salt. */
const commitmentOf = (secret: { campaign: string; turn: number; army: string; order: string; salt: string }) =>
  createHash("sha256")
    .update(
      canonicalize({
        campaign: secret.campaign,
        turn: secret.turn,
        army: secret.army,
        order: secret.order,
        salt: secret.salt,
      })!,
      "utf8",
    )
    .digest("hex");

/** T3 restated: players alternate from `first`; a player with no army left to activate passes to the other. */
function nextToActivate(state: StateJson): { player: string; army: string } | undefined {
  const turn = state.turnState!;
  const players = state.setup.players.map((p) => p.id);
  const waiting = (player: string) =>
    Object.values(state.armies)
      .filter(
        (a) =>
          a.player === player &&
          a.status === "active" &&
          a.at !== null &&
          a.sinceTurn <= state.turn &&
          !turn.activations[a.id],
      )
      .map((a) => a.id)
      .sort();
  const candidate = turn.lastActivator === null ? turn.first! : players.find((p) => p !== turn.lastActivator)!;
  for (const player of [candidate, players.find((p) => p !== candidate)!]) {
    const armies = waiting(player);
    if (armies.length > 0) return { player, army: armies[0]! };
  }
  return undefined;
}

/** ready.json: a first move for each side that Advance allows (one square off the base line, onto an empty square). */
const FIRST_MOVE: Record<string, { army: string; from: Square; path: Square[] }> = {
  red: { army: "r1", from: [1, 0], path: [[1, 1]] },
  blue: { army: "b1", from: [2, 7], path: [[2, 6]] },
};

// ---------------------------------------------------------------------------------------------------------------
// The scenarios: each plays its campaign through the CLI, one run after another, each in its own folder; the three
// run side by side, and the tests below check what each printed and left behind.

async function demoScenario() {
  const db = join(await scratchDir("epicwar-cli-demo-"), "db");
  const demo = await cli(["demo", "--db", db]);
  const finished = await stateJson(db);
  const verified = await cli(["verify", "--db", db]);
  const log = await logJson(db);
  // E2: commands of every phase on copies of the finished campaign, side by side (a LevelDB folder has one writer).
  const [p, q] = finished.setup.players.map((player) => player.id) as [string, string];
  const army =
    Object.values(finished.armies).find((a) => a.player === p && a.status === "active") ??
    Object.values(finished.armies)[0]!;
  const nil = { vp: 0, losses: {}, routed: {} };
  const commands: object[] = [
    { actor: "host", type: "StartTurn" },
    { actor: q, type: "ChooseFirst", first: q },
    { actor: army.player, type: "ActivateArmy", army: army.id, order: "advance", path: [] },
    { actor: p, type: "ReportBattleResult", battle: "t1b1", result: { outcome: "draw", attacker: nil, defender: nil } },
    { actor: p, type: "FinishEndPhase" },
    { actor: "host", type: "EndTurn" },
  ];
  const afterFinish = await Promise.all(
    commands.map(async (command, i) => {
      const dir = await scratchDir("epicwar-cli-finished-");
      await cp(dirname(db), dir, { recursive: true });
      const copy = join(dir, "db");
      const file = await writeCommands(dir, `after-${i}.jsonl`, [command]);
      const run = await cli(["apply", file, "--db", copy]);
      return { command, file, run, log: await logJson(copy) };
    }),
  );
  return { db, demo, finished, verified, log, afterFinish };
}

async function hiddenScenario() {
  const dir = await scratchDir("epicwar-cli-hidden-");
  const db = join(dir, "db");
  const secrets = join(dir, "db-secrets");
  await ok(["new", "--db", db, "--setup", READY]);
  const start = await stateJson(db);
  const winner = start.turnState!.initiativeWinner!;
  const loser = start.setup.players.find((p) => p.id !== winner)!.id;
  const move = FIRST_MOVE[winner]!;
  expect(start.armies[move.army]!.at).toEqual(move.from);
  const file = await writeCommands(dir, "first.jsonl", [
    { actor: winner, type: "ChooseFirst", first: winner },
    { actor: winner, type: "ActivateArmy", army: move.army, order: "advance", path: move.path },
  ]);
  await ok(["apply", file, "--db", db]);
  const given = new Map<string, string>([[move.army, "advance"]]);
  const afterFirst = await logJson(db);
  // One process at a time: a LevelDB folder is open in one process only.
  const asWinner = await ok(["state", "--db", db, "--as", winner]);
  const asLoser = await ok(["state", "--db", db, "--as", loser]);
  const asLoserJson = await stateJson(db, "--as", loser);
  const asWinnerJson = await stateJson(db, "--as", winner);
  const winnerSecrets = await readSecrets(secrets, "golden", winner);

  // Every other army in turn, as state --json says whose turn it is; orders that need no move.
  const orders = ["firstFire", "fortify", "charge", "advance"];
  for (let i = 0; i < 10; i++) {
    const state = await stateJson(db);
    if (state.phase !== "action") break;
    const next = nextToActivate(state);
    if (!next) break;
    const order = orders[i % orders.length]!;
    const line = await writeCommands(dir, `activate-${i}.jsonl`, [
      { actor: next.player, type: "ActivateArmy", army: next.army, order, path: [] },
    ]);
    await ok(["apply", line, "--db", db]);
    given.set(next.army, order);
  }
  const afterEvery = await logJson(db);
  const endState = await stateJson(db);
  return {
    db,
    secrets,
    winner,
    loser,
    move,
    afterFirst,
    asWinner,
    asLoser,
    asLoserJson,
    asWinnerJson,
    winnerSecrets,
    given,
    afterEvery,
    endState,
  };
}

async function lostScenario() {
  const dir = await scratchDir("epicwar-cli-lost-");
  const db = join(dir, "db");
  // The parties' keys (D2) are kept in A too: the machine that set the campaign up is the one that plays on.
  await ok(["new", "--db", db, "--setup", READY, "--secrets", join(dir, "A")]);
  const player = (await stateJson(db)).turnState!.initiativeWinner!;
  const army = FIRST_MOVE[player]!.army;
  const file = await writeCommands(dir, "activate.jsonl", [
    { actor: player, type: "ChooseFirst", first: player },
    { actor: player, type: "ActivateArmy", army, order: "charge", path: [] },
  ]);
  await ok(["apply", file, "--db", db, "--secrets", join(dir, "A")]);
  const before = await logJson(db);
  return { dir, db, player, army, before };
}

let scenarios: {
  demo: ReturnType<typeof demoScenario>;
  hidden: ReturnType<typeof hiddenScenario>;
  lost: ReturnType<typeof lostScenario>;
};

beforeAll(async () => {
  scenarios = { demo: demoScenario(), hidden: hiddenScenario(), lost: lostScenario() };
  // Settled here, so that a failing scenario fails the describe blocks that use it, not an unhandled rejection.
  await Promise.allSettled(Object.values(scenarios));
}, 120_000);

describe("demo: the bundled campaign played to a victory through the CLI", () => {
  let demo: Run;
  let finished: StateJson;
  let verified: Run;
  let log: string;
  let afterFinish: Array<{ command: object; file: string; run: Run; log: string }>;

  beforeAll(async () => {
    ({ demo, finished, verified, log, afterFinish } = await scenarios.demo);
  });

  it("T1 B4 E2 demo exits 0 and tells the campaign turn by turn: battles, the winner, an intact chain", async () => {
    expect(demo.code, show(demo)).toBe(0);
    expect(demo.stderr).toBe("");
    const out = demo.stdout;
    const turns = [...out.matchAll(/^== Turn (\d+) ==$/gm)].map((m) => Number(m[1]));
    expect(turns[0], out).toBe(1);
    expect(turns.length, "later turns follow").toBeGreaterThan(1);
    expect(turns, "turn headings count up from 1").toEqual(turns.map((_, i) => i + 1));
    expect(out).toMatch(/battle t\d+b\d+ at \(\d+,\d+\): \S+ attacks \S+/);
    expect(out).toMatch(/battle t\d+b\d+: .*CVPs /);
    const end =
      out.match(/^(.+) win the campaign in turn (\d+)\.$/m) ??
      out.match(/^The campaign ends in a (draw) in turn (\d+)\.$/m);
    expect(end, out).not.toBeNull();
    expect(Number(end![2])).toBe(turns[turns.length - 1]);
    const events = nonEmptyLines(log).length;
    expect(out).toMatch(new RegExp(`^Hash chain: ashfall: intact, ${events} events, head [0-9a-f]{16}$`, "m"));
  });

  it("E2 state --json shows the campaign finished with its result; verify exits 0", () => {
    expect(finished.status).toBe("finished");
    expect(finished.result).not.toBeNull();
    const winner = finished.result!.winner;
    const named = winner === null ? "draw" : finished.setup.players.find((p) => p.id === winner)!.name;
    expect(demo.stdout).toContain(
      winner === null
        ? `ends in a draw in turn ${finished.result!.turn}.`
        : `${named} win the campaign in turn ${finished.result!.turn}.`,
    );
    const logged = parseLog(log);
    expect(logged[logged.length - 1]).toMatchObject({
      type: "CampaignFinished",
      data: { winner, turn: finished.result!.turn },
    });
    expect(verified.code, show(verified)).toBe(0);
    expect(verified.stdout).toMatch(/^ashfall: intact, \d+ events, head [0-9a-f]{16}$/m);
  });

  it("E2 apply of any command on the finished campaign is refused naming E2 (exit 1, one line), the log unchanged", async () => {
    expect(afterFinish.length).toBeGreaterThanOrEqual(5);
    for (const { command, file, run, log: after } of afterFinish) {
      const message = expectOneLineError(run);
      expect(message, JSON.stringify(command)).toContain(`${file}:1: refused: E2: the campaign is over`);
      expect(after, `the log after ${JSON.stringify(command)}`).toBe(log);
    }
  });
});

describe("hidden orders through the CLI (ready.json): committed in the log, kept in the secrets files, revealed from them", () => {
  let db: string;
  let secrets: string;
  let winner: string;
  let loser: string;
  let move: (typeof FIRST_MOVE)[string];
  let afterFirst: string;
  let asWinner: string;
  let asLoser: string;
  let asLoserJson: StateJson;
  let asWinnerJson: StateJson;
  let winnerSecrets: SecretsFile;
  /** After every army is activated: */
  let given: Map<string, string>;
  let afterEvery: string;
  let endState: StateJson;

  beforeAll(async () => {
    ({
      db,
      secrets,
      winner,
      loser,
      move,
      afterFirst,
      asWinner,
      asLoser,
      asLoserJson,
      asWinnerJson,
      winnerSecrets,
      given,
      afterEvery,
      endState,
    } = await scenarios.hidden);
  });

  it("T5 the log holds the commitment to the order given in the clear, never the order word nor its salt", () => {
    const events = parseLog(afterFirst);
    const activated = events.find((e) => e.type === "ArmyActivated" && e.data["army"] === move.army)!;
    expect(activated).toMatchObject({ actor: winner, data: { turn: 1, player: winner } });
    expect(activated.data["commitment"]).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(activated.data)).not.toContain("order");
    const moved = events.find((e) => e.type === "ArmyMoved" && e.data["army"] === move.army)!;
    expect(moved.data["path"]).toEqual(move.path);
    for (const event of [activated, moved]) expect(JSON.stringify(event)).not.toMatch(/advance/i);
    expect(afterFirst).not.toMatch(/advance/i);
    expect(events.some((e) => e.type === "OrderRevealed")).toBe(false);

    const held = winnerSecrets.orders?.[`1/${move.army}`];
    expect(held, JSON.stringify(winnerSecrets)).toMatchObject({ order: "advance" });
    expect(held!.salt).toMatch(/^[0-9a-f]{32,128}$/);
    expect(afterFirst, "the salt is nowhere in the log").not.toContain(held!.salt);
    expect(activated.data["commitment"]).toBe(
      commitmentOf({ campaign: "golden", turn: 1, army: move.army, order: "advance", salt: held!.salt }),
    );
  });

  it("T5 state --as the player shows its own hidden order; --as the opponent does not", () => {
    const armyLine = (text: string) => text.split("\n").find((line) => new RegExp(`^\\s+${move.army}\\s`).test(line))!;
    expect(armyLine(asWinner)).toContain("Advance (hidden from your opponent)");
    expect(asWinner).toContain(`(${winner}), base line`);
    expect(armyLine(asLoser)).toContain("activated, order hidden");
    expect(asLoser).not.toContain("hidden from your opponent");
    expect(armyLine(asLoser)).not.toMatch(/advance/i);
    expect(asWinnerJson.heldOrders).toEqual({ [move.army]: "advance" });
    expect(asLoserJson.heldOrders).toEqual({});
    expect(JSON.stringify(asLoserJson)).not.toMatch(/advance/i);
  });

  it("S8 state --as the opponent --json hides the other side's commanders and shows its own", async () => {
    const setup = JSON.parse(await readFile(READY, "utf8")) as {
      armies: Array<{ id: string; player: string; commander: { formation: string; unitType: string } }>;
    };
    // Hidden means: the viewer learns neither the formation nor the unit type, and sees "hidden" in their place.
    const expectHidden = (seen: unknown, army: (typeof setup.armies)[number], viewer: string) => {
      const text = JSON.stringify(seen);
      expect(text, `${viewer} sees ${army.id}'s commander`).toContain("hidden");
      expect(text, `${viewer} sees ${army.id}'s commander`).not.toContain(`"${army.commander.formation}"`);
      expect(text, `${viewer} sees ${army.id}'s commander`).not.toContain(`"${army.commander.unitType}"`);
    };
    for (const army of setup.armies) {
      for (const [viewer, view] of [
        [loser, asLoserJson],
        [winner, asWinnerJson],
      ] as const) {
        const seen = view.armies[army.id]!.commander;
        if (army.player === viewer)
          expect(seen, `${viewer} sees its own ${army.id}'s commander`).toEqual(army.commander);
        else expectHidden(seen, army, viewer);
      }
    }
  });

  it("T3 T5 once every army is activated the chores reveal every order from the secrets files: salts and orders as kept", async () => {
    expect([...given.keys()].sort(), "every army was activated").toEqual(["b1", "b2", "r1", "r2"]);
    const events = parseLog(afterEvery);
    const activations = events.filter((e) => e.type === "ArmyActivated");
    // T3: alternating from the winner's choice (each side has two armies).
    expect(activations.map((e) => e.data["player"])).toEqual([winner, loser, winner, loser]);
    const reveals = events.filter((e) => e.type === "OrderRevealed");
    expect(reveals.map((e) => e.data["army"]).sort()).toEqual(["b1", "b2", "r1", "r2"]);
    for (const party of ["red", "blue"]) {
      const kept = (await readSecrets(secrets, "golden", party)).orders ?? {};
      for (const reveal of reveals.filter((e) => e.actor === party)) {
        const army = String(reveal.data["army"]);
        expect(reveal.data, army).toMatchObject({ turn: 1, order: given.get(army), salt: kept[`1/${army}`]!.salt });
        const activation = activations.find((e) => e.data["army"] === army)!;
        expect(activation.data["commitment"]).toBe(
          commitmentOf({
            campaign: "golden",
            turn: 1,
            army,
            order: String(reveal.data["order"]),
            salt: String(reveal.data["salt"]),
          }),
        );
      }
    }
    const ended = events.find((e) => e.type === "ActionPhaseEnded")!;
    expect(ended.data["withheld"]).toEqual([]);
    expect(ended.seq).toBeGreaterThan(Math.max(...reveals.map((e) => e.seq)));
    expect(events.some((e) => e.type === "OrderViolated" || e.type === "RevealRejected")).toBe(false);
    expect(endState.phase, "no battle: the End phase begins").toBe("end");
    expect((await cli(["verify", "--db", db])).code).toBe(0);
  });
});

describe("a lost secrets file, and a machine acting as one player", () => {
  let dir: string;
  let db: string;
  let player: string;
  let army: string;
  let before: string;

  beforeAll(async () => {
    ({ dir, db, player, army, before } = await scenarios.lost);
  });

  it("T5 the order kept under --secrets A cannot be revealed from --secrets B: exit 1, one line saying the secrets were lost, the log unchanged", async () => {
    const kept = await readSecrets(join(dir, "A"), "golden", player);
    expect(kept.orders?.[`1/${army}`]).toMatchObject({ order: "charge" });
    expect(existsSync(join(dir, "B", "golden", `${player}.json`))).toBe(false);
    const file = await writeCommands(dir, "reveal.jsonl", [{ actor: player, type: "RevealOrder", army }]);
    const message = expectOneLineError(
      await cli(["apply", file, "--db", db, "--secrets", join(dir, "B"), "--no-chores"]),
    );
    expect(message).toContain(`${file}:1:`);
    expect(message).toContain(`${player} holds no order for ${army} in turn 1`);
    expect(message).toMatch(/secrets were lost/);
    expect(message).toContain("nothing from this line on was applied");
    expect(await logJson(db)).toBe(before);
    expect((await cli(["verify", "--db", db])).code).toBe(0);
  });

  it("--as red refuses a line whose actor is blue: exit 1, one line, the log unchanged", async () => {
    const file = await writeCommands(dir, "as-red.jsonl", [{ actor: "blue", type: "FinishEndPhase" }]);
    const message = expectOneLineError(await cli(["apply", file, "--db", db, "--as", "red"]));
    expect(message).toContain(`${file}:1: this machine acts as red, and this line is blue's`);
    expect(await logJson(db)).toBe(before);
  });
});
