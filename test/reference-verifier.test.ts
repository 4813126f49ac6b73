/**
 * The reference verifier (tools/verify_log.py, Python with the standard library only, written from the documents) on
 * `epicwar log --raw` of both demos: it passes them with counts that match what the logs hold, and it names the seq of
 * each tampering: a body byte changed, and edits re-sealed into a consistent chain that only a commitment, a seed, a
 * roll, a roll's form (pending too) or what the battle kit's dice mean can give away. The demos are played once, by the CLI (run in this process).
 */
import { execFile, type ExecFileException } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type DomainEvent, type EventData, type StoredEvent } from "../events/index.js";
import { auditCampaign, VERDICTS } from "../replays/audit.js";
import { scoutingBand } from "../projections/scouting.js";
import { rollScouting } from "../src/crypto/dice.js";
import { canonicalJson, sealEvent, sha256Hex } from "../src/log/index.js";
import { runInProcess, show, type Run } from "./support/cli.js";

const VERIFIER = fileURLToPath(new URL("../tools/verify_log.py", import.meta.url));

/** A line of `log --raw` (docs/storage.md, "The raw log"). */
type RawLine =
  | { kind: "event"; stream: string; seq: number; hash: string; body: string }
  | { kind: "head"; stream: string; seq: number; hash: string };
/** A body as parsed: the envelope without its hash. */
type Body = Omit<StoredEvent, "hash">;

interface RawLog {
  events: Array<Extract<RawLine, { kind: "event" }>>;
  head: Extract<RawLine, { kind: "head" }>;
  bodies: Body[];
}

function parseRaw(text: string): RawLog {
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RawLine);
  const head = lines.pop()!;
  if (head.kind !== "head" || lines.some((line) => line.kind !== "event"))
    throw new Error("a raw log is event lines, then one head line");
  const events = lines as RawLog["events"];
  return { events, head, bodies: events.map((line) => JSON.parse(line.body) as Body) };
}

const rawText = (lines: readonly RawLine[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/**
 * The log as a host with the folder could rewrite it: `edit` applied to the parsed events, then every event sealed
 * again as the store seals it (seq renumbered, linked to the one before) and a new head: a chain that verifies.
 */
function resealed(log: RawLog, edit: (bodies: Body[]) => Body[]): string {
  const lines: RawLine[] = [];
  let prev = "0".repeat(64);
  for (const [index, body] of edit(structuredClone(log.bodies)).entries()) {
    const { value } = sealEvent(body.stream, index + 1, prev, {
      type: body.type,
      version: body.version,
      at: body.at,
      actor: body.actor,
      ...(body.command ? { command: body.command } : {}),
      data: body.data,
    });
    prev = value.slice(0, 64);
    lines.push({ kind: "event", stream: body.stream, seq: index + 1, hash: prev, body: value.slice(64) });
  }
  return rawText([...lines, { kind: "head", stream: log.head.stream, seq: lines.length, hash: prev }]);
}

/**
 * The log as a log from before seat keys (D2): no SeatKeyRegistered, no signed command. Events written into it, or
 * taken out, then show only in what they break of the commitments, seeds and rolls, which is what those tests check.
 */
const unsigned = (bodies: Body[]): Body[] =>
  bodies.filter((body) => body.type !== "SeatKeyRegistered").map(({ command: _signed, ...body }) => body);

/** Runs the verifier on a raw log given on its standard input. */
async function verifyRaw(raw: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "python3",
      [VERIFIER, "-"],
      { encoding: "utf8", timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = (error as ExecFileException | null)?.code ?? 0;
        // A string code (ENOENT: no python3) or a kill is no answer from the verifier.
        if (typeof code === "number" && !error?.killed) resolve({ code, stdout, stderr });
        else reject(error);
      },
    );
    // The verifier stops reading at the first break in the chain: the rest of the log is not its to take.
    child.stdin?.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin?.end(raw);
  });
}

/** What the verifier says it checked, read from its summary. */
function summary(run: Run) {
  const count = (pattern: RegExp) => {
    const match = pattern.exec(run.stdout);
    if (!match) throw new Error(`no ${pattern} in\n${show(run)}`);
    return Number(match[1]);
  };
  return {
    events: count(/^events: (\d+), chain intact; head seq \d+ hash [0-9a-f]{64}$/m),
    commitments: count(/^order commitments: (\d+) checked/m),
    hostSeeds: count(/^host seeds: (\d+) checked/m),
    playerSeeds: count(/^player seeds: (\d+) checked/m),
    rolls: count(/^rolls: (\d+) recomputed/m),
  };
}

/** What the verifier should have checked, counted from the log itself. */
function held(log: RawLog) {
  const of = (...types: string[]) => log.bodies.filter((body) => types.includes(body.type)).length;
  const firstFireAnswers = log.bodies.filter(
    (body) => body.type === "ScoutingAnswered" && (body.data as EventData<"ScoutingAnswered">).firstFire,
  ).length;
  return {
    events: log.events.length,
    commitments: of("OrderRevealed", "RevealRejected", "ScoutingDeclared") + firstFireAnswers,
    hostSeeds: of("TurnEnded"),
    playerSeeds: of("PlayerSeedGiven"),
    rolls: of(
      "InitiativeRolled",
      "ScoutingRolled",
      "ScenarioRolled",
      "BattleConditionsRolled",
      "GravityFluxRolled",
      "WhiteOutRolled",
      "SavesRolled",
      "BarrageRolled",
    ),
  };
}

/** The verifier's verdict on a tampered log: exit 1 and the first failure's seq and words. */
async function expectFailure(raw: string, seq: number, words: RegExp): Promise<Run> {
  const run = await verifyRaw(raw);
  expect(run.code, show(run)).toBe(1);
  const failure = /^FAIL.*$/m.exec(run.stdout)?.[0] ?? "";
  expect(failure, show(run)).toMatch(new RegExp(`seq ${seq}: `));
  expect(failure, show(run)).toMatch(words);
  return run;
}

const seqOf = (log: RawLog, type: string, nth = 0) => log.bodies.filter((body) => body.type === type)[nth]!.seq;

const folders: string[] = [];
let basic: RawLog;
let advanced: RawLog;
let basicDb: string;

async function playDemo(advancedRules: boolean): Promise<{ db: string; text: string }> {
  const folder = await mkdtemp(join(tmpdir(), "epicwar-reference-verifier-"));
  folders.push(folder);
  const db = join(folder, "db");
  const played = await runInProcess(["demo", "--db", db, ...(advancedRules ? ["--advanced"] : [])]);
  if (played.code !== 0) throw new Error(show(played));
  const raw = await runInProcess(["log", "--raw", "--db", db]);
  if (raw.code !== 0) throw new Error(show(raw));
  return { db, text: raw.stdout };
}

beforeAll(async () => {
  const [b, a] = await Promise.all([playDemo(false), playDemo(true)]);
  [basicDb, basic, advanced] = [b.db, parseRaw(b.text), parseRaw(a.text)];
}, 120_000);

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe("log --raw", () => {
  it("prints each stored body verbatim with the hash stored in front of it, then the head: the bytes that were hashed", async () => {
    const json = await runInProcess(["log", "--json", "--db", basicDb]);
    expect(json.code, show(json)).toBe(0);
    const reserialised = json.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as StoredEvent);
    expect(basic.events.map((line) => line.seq)).toEqual(reserialised.map((event) => event.seq));
    basic.events.forEach((line, index) => {
      const { hash, ...body } = reserialised[index]!;
      expect(line.hash).toBe(hash);
      expect(sha256Hex(line.body)).toBe(line.hash);
      // The body is the canonical JSON the store wrote, not a text written for the output.
      expect(canonicalJson(body)).toBe(line.body);
      expect(line.stream).toBe("ashfall");
    });
    expect(basic.head).toEqual({
      kind: "head",
      stream: "ashfall",
      seq: basic.events.length,
      hash: basic.events.at(-1)!.hash,
    });
  });

  it("of a branch: the parent's events up to the fork, then the branch's own, and the branch's head", async () => {
    const forkSeq = seqOf(basic, "TurnEnded", 1);
    const fork = await runInProcess(["branch", "--db", basicDb, "--from-seq", String(forkSeq), "--name", "raw"]);
    expect(fork.code, show(fork)).toBe(0);
    const seedHash = sha256Hex("ab".repeat(32));
    const own = await runInProcess(
      ["apply", "-", "--db", basicDb, "--branch", "raw", "--no-chores"],
      JSON.stringify({ actor: "concord", type: "CommitSeed", seedHash }),
    );
    expect(own.code, show(own)).toBe(0);
    const run = await runInProcess(["log", "--raw", "--db", basicDb, "--branch", "raw"]);
    expect(run.code, show(run)).toBe(0);
    const branch = parseRaw(run.stdout);
    expect(branch.events.slice(0, forkSeq)).toEqual(basic.events.slice(0, forkSeq));
    expect(branch.events.slice(forkSeq).map((line) => [line.stream, line.seq])).toEqual([["ashfall.raw", forkSeq + 1]]);
    expect(branch.head).toEqual({
      kind: "head",
      stream: "ashfall.raw",
      seq: forkSeq + 1,
      hash: branch.events.at(-1)!.hash,
    });
    const verified = await verifyRaw(run.stdout);
    expect(verified.code, show(verified)).toBe(0);
    expect(summary(verified).events).toBe(forkSeq + 1);
  });

  it("is refused with --json or --as: it is the log as stored, not a view of it", async () => {
    for (const [option, name] of [
      [["--as", "concord"], "--as"],
      [["--json"], "--json"],
    ] as const) {
      const run = await runInProcess(["log", "--raw", ...option, "--db", basicDb]);
      expect(run.code, show(run)).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`'--raw' cannot be used with option '${name}`);
    }
  });
});

describe("tools/verify_log.py", () => {
  it.each([
    ["basic", () => basic],
    ["advanced", () => advanced],
  ])("passes the %s demo's log, counting every event, reveal, seed and roll it holds", async (_name, log) => {
    const run = await verifyRaw(rawText([...log().events, log().head]));
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toMatch(/^OK: every check passed$/m);
    expect(run.stdout).toContain(`head seq ${log().head.seq} hash ${log().head.hash}`);
    const expected = held(log());
    expect(summary(run)).toEqual(expected);
    for (const count of Object.values(expected)) expect(count).toBeGreaterThan(0);
  });

  it("names the seq of a body changed by one byte under its old hash", async () => {
    const target = basic.events[99]!;
    const changed = {
      ...target,
      body: target.body.replace(/"at":"(\d)/, (_all, digit: string) => `"at":"${(Number(digit) + 1) % 10}`),
    };
    expect(changed.body).not.toBe(target.body);
    const lines = basic.events.map((line) => (line === target ? changed : line));
    await expectFailure(
      rawText([...lines, basic.head]),
      target.seq,
      /stored hash is not the SHA-256 of the stored body/,
    );
  });

  it("names the seq of an event dropped, and of a head that is not the last event", async () => {
    await expectFailure(
      rawText([...basic.events.filter((line) => line.seq !== 50), basic.head]),
      51,
      /expected seq 50/,
    );
    await expectFailure(
      rawText([...basic.events.slice(0, -1), basic.head]),
      basic.head.seq,
      /head is not the last event/,
    );
  });

  it("names the seq of a revealed order changed and re-sealed into a chain that holds: only the commitment shows it", async () => {
    const seq = seqOf(basic, "OrderRevealed", 3);
    const raw = resealed(basic, (bodies) => {
      const data = bodies[seq - 1]!.data as EventData<"OrderRevealed">;
      data.order = data.order === "charge" ? "advance" : "charge";
      return bodies;
    });
    const run = await expectFailure(raw, seq, /do not hash to the commitment of its ArmyActivated/);
    expect(run.stdout).toMatch(/chain intact/);
  });

  it("names the seq of an initiative roll changed and re-sealed", async () => {
    const seq = seqOf(basic, "InitiativeRolled", 2);
    const raw = resealed(basic, (bodies) => {
      const round = (bodies[seq - 1]!.data as EventData<"InitiativeRolled">).rounds[0]!;
      const [player, value] = Object.entries(round)[0]!;
      round[player] = (value % 6) + 1;
      return bodies;
    });
    await expectFailure(raw, seq, /initiative roll of turn 3 does not recompute from the seeds/);
  });

  it("names the seq of a player seed or a host seed that does not hash to its commitment", async () => {
    const given = seqOf(basic, "PlayerSeedGiven", 1);
    const otherSeed = resealed(basic, (bodies) => {
      (bodies[given - 1]!.data as EventData<"PlayerSeedGiven">).seed = "cd".repeat(32);
      return bodies;
    });
    await expectFailure(otherSeed, given, /seed for turn 1 does not hash to a PlayerSeedCommitted/);
    const ended = seqOf(basic, "TurnEnded", 2);
    const otherHostSeed = resealed(basic, (bodies) => {
      (bodies[ended - 1]!.data as EventData<"TurnEnded">).hostSeed = "ef".repeat(32);
      return bodies;
    });
    await expectFailure(
      otherHostSeed,
      ended,
      /host seed of turn 3 does not hash to the hostSeedHash of its TurnStarted/,
    );
  });

  it("names a player's seed commitment made a second time after the host's, or while a turn is under way", async () => {
    const commitmentOf = (bodies: Body[], turn: number) =>
      bodies.findIndex(
        (body) => body.type === "PlayerSeedCommitted" && (body.data as EventData<"PlayerSeedCommitted">).turn === turn,
      );
    const started = seqOf(basic, "TurnStarted", 1);
    const again = resealed(basic, (bodies) => {
      bodies.splice(started, 0, structuredClone(bodies[commitmentOf(bodies, 2)]!));
      return bodies;
    });
    await expectFailure(
      again,
      started + 1,
      /commits to a seed for turn 2 a second time or after the turn's TurnStarted/,
    );

    const ended = seqOf(basic, "TurnEnded", 1);
    const early = resealed(basic, (bodies) => {
      const [commitment] = bodies.splice(commitmentOf(bodies, 3), 1);
      bodies.splice(ended - 1, 0, commitment!);
      return bodies;
    });
    await expectFailure(early, ended, /commits to a seed for turn 3 while turn 2 is under way/);
  });

  it("names the TurnStarted of a turn some player had not committed to a seed for: every seed needs its commitment", async () => {
    const players = (basic.bodies[0]!.data as EventData<"CampaignCreated">).players.map((player) => player.id);
    const startedSeq = (bodies: Body[], turn: number) =>
      bodies.findIndex((body) => body.type === "TurnStarted" && (body.data as EventData<"TurnStarted">).turn === turn) +
      1;
    /** The demo's log without the commitments `drop` picks, and the seq of turn `turn`'s TurnStarted in it. */
    const dropping = (turn: number, drop: (data: EventData<"PlayerSeedCommitted">) => boolean) => {
      let seq = 0;
      const raw = resealed(basic, (bodies) => {
        const kept = unsigned(bodies).filter(
          (body) => body.type !== "PlayerSeedCommitted" || !drop(body.data as EventData<"PlayerSeedCommitted">),
        );
        expect(kept.length).toBeLessThan(bodies.length);
        seq = startedSeq(kept, turn);
        return kept;
      });
      return { raw, seq };
    };
    const none = dropping(1, () => true);
    const run = await expectFailure(
      none.raw,
      none.seq,
      new RegExp(`turn 1 starts before ${players.join(", ")} committed to a seed for it`),
    );
    expect(run.stdout).toMatch(/^player seeds: \d+ checked against their PlayerSeedCommitted \(0 commitments\)$/m);
    expect(run.stdout).not.toMatch(/old protocol/);

    const oneTurn = dropping(3, (data) => data.turn === 3);
    await expectFailure(
      oneTurn.raw,
      oneTurn.seq,
      new RegExp(`turn 3 starts before ${players.join(", ")} committed to a seed for it`),
    );

    const onePlayer = dropping(3, (data) => data.turn === 3 && data.player === players[1]);
    await expectFailure(
      onePlayer.raw,
      onePlayer.seq,
      new RegExp(`turn 3 starts before ${players[1]} committed to a seed for it: no PlayerSeedCommitted`),
    );

    // A commitment for turn 3 written before turn 2 started is not in turn 3's run-up.
    let player = "";
    let started3 = 0;
    const beforeRunUp = resealed(basic, (signed) => {
      const bodies = unsigned(signed);
      const turn2 = bodies.findIndex(
        (body) => body.type === "TurnStarted" && (body.data as EventData<"TurnStarted">).turn === 2,
      );
      const index = bodies.findIndex(
        (body) => body.type === "PlayerSeedCommitted" && (body.data as EventData<"PlayerSeedCommitted">).turn === 3,
      );
      const [commitment] = bodies.splice(index, 1);
      player = (commitment!.data as EventData<"PlayerSeedCommitted">).player;
      // Recorded at the time of the event before it: recorded times never go back.
      bodies.splice(turn2, 0, { ...commitment!, at: bodies[turn2 - 1]!.at });
      started3 = startedSeq(bodies, 3);
      return bodies;
    });
    await expectFailure(
      beforeRunUp,
      started3,
      new RegExp(
        `turn 3 starts before ${player} committed to a seed for it: no PlayerSeedCommitted since the last TurnEnded`,
      ),
    );
  });

  describe("what the battle kit's dice mean (K5)", () => {
    it.each([
      ["basic", () => basic],
      ["advanced", () => advanced],
    ])("names the seq of a failed save recorded as saved in the %s demo, re-sealed", async (_name, log) => {
      const seq = log().bodies.find(
        (body) =>
          body.type === "SavesRolled" &&
          (body.data as EventData<"SavesRolled">).saves.some((save) => !save.saved && save.damage === undefined),
      )!.seq;
      const raw = resealed(log(), (bodies) => {
        const data = bodies[seq - 1]!.data as EventData<"SavesRolled">;
        const failed = data.saves.find((save) => !save.saved && save.damage === undefined)!;
        failed.saved = true;
        if (!data.saves.some((save) => save.unit === failed.unit && !save.saved))
          data.destroyed = data.destroyed.filter((unit) => unit !== failed.unit);
        return bodies;
      });
      await expectFailure(
        raw,
        seq,
        /SavesRolled is not what its dice give: saves of volley \S+ do not follow from its dice/,
      );
    });

    it("names the seq of a barrage's hits raised by one, re-sealed", async () => {
      const seq = seqOf(advanced, "BarrageRolled", 0);
      const raw = resealed(advanced, (bodies) => {
        (bodies[seq - 1]!.data as EventData<"BarrageRolled">).hits += 1;
        return bodies;
      });
      await expectFailure(
        raw,
        seq,
        /BarrageRolled is not what its dice give: barrage \S+ records \d+ hits where its d10s give/,
      );
    });
  });

  describe("what the battle kit's conditions mean (K3)", () => {
    /** A table's band at faces 1 and 6: every one of these tables gives them different bands. */
    const ENDS = {
      light: ["darkestBeforeDawn", "darkestNight"],
      rain: ["clearingUp", "hardRain"],
      atmosphere: ["cantBreathe", "welcomeToHell"],
    } as const;

    it("names the seq of a condition whose die and band were changed together, re-sealed: the kit's dice say otherwise", async () => {
      const rolled = advanced.bodies.find(
        (body) =>
          body.type === "BattleConditionsRolled" &&
          Object.keys(ENDS).some((table) => table in (body.data as EventData<"BattleConditionsRolled">).conditions),
      )!;
      const raw = resealed(advanced, (bodies) => {
        const conditions = (bodies[rolled.seq - 1]!.data as EventData<"BattleConditionsRolled">).conditions;
        const table = (Object.keys(ENDS) as (keyof typeof ENDS)[]).find((name) => conditions[name])!;
        const condition = conditions[table]!;
        const face = condition.die === 6 ? 1 : 6;
        Object.assign(condition, { die: face, band: ENDS[table][face === 1 ? 0 : 1] });
        return bodies;
      });
      await expectFailure(
        raw,
        rolled.seq,
        /BattleConditionsRolled is not what its dice give: conditions .* where the campaign's tables and its dice give/,
      );
    });

    it("names the seq of a starting gravity changed, re-sealed", async () => {
      const rolled = advanced.bodies.find(
        (body) =>
          body.type === "BattleConditionsRolled" &&
          (body.data as EventData<"BattleConditionsRolled">).conditions.gravity,
      )!;
      const raw = resealed(advanced, (bodies) => {
        const gravity = (bodies[rolled.seq - 1]!.data as EventData<"BattleConditionsRolled">).conditions.gravity!;
        gravity.level = gravity.level === "low" ? "high" : "low";
        return bodies;
      });
      await expectFailure(raw, rolled.seq, /BattleConditionsRolled is not what its dice give: conditions/);
    });

    it("names the seq of a Gravity Flux level changed, re-sealed", async () => {
      const seq = seqOf(advanced, "GravityFluxRolled", 0);
      const raw = resealed(advanced, (bodies) => {
        const data = bodies[seq - 1]!.data as EventData<"GravityFluxRolled">;
        data.level = data.level === "low" ? "high" : "low";
        data.changed = !data.changed;
        return bodies;
      });
      await expectFailure(
        raw,
        seq,
        /GravityFluxRolled is not what its dice give: level \S+ \(changed: \w+\) where its d6 gives/,
      );
    });
  });

  describe("scouting (A3)", () => {
    /**
     * The advanced demo with a scouting written into turn 1 as the engine writes one: an army that revealed Advance
     * scouts an enemy army (its commitment and salt as logged), the scouted army takes no bonus, and the roll is the
     * engine's own for the turn's seeds, from the die after initiative.
     */
    function withScouting(edit: (roll: EventData<"ScoutingRolled">) => void = () => undefined): {
      raw: string;
      rolledSeq: number;
    } {
      let rolledSeq = 0;
      const raw = resealed(advanced, (signed) => {
        const bodies = unsigned(signed);
        const inTurn1 = <T extends DomainEvent["type"]>(type: T) =>
          bodies.filter((body) => body.type === type && (body.data as { turn: number }).turn === 1) as Array<
            Body & { data: EventData<T> }
          >;
        const created = bodies[0]!.data as EventData<"CampaignCreated">;
        const players = created.players.map((player) => player.id);
        const reveal = inTurn1("OrderRevealed").find((body) => body.data.order === "advance")!;
        const activation = inTurn1("ArmyActivated").find((body) => body.data.army === reveal.data.army)!;
        const target = inTurn1("ArmyActivated").find((body) => body.data.player !== activation.data.player)!.data;
        const initiative = inTurn1("InitiativeRolled")[0]!;
        const seeds = {
          campaign: created.campaign,
          turn: 1,
          hostSeed: inTurn1("TurnEnded")[0]!.data.hostSeed,
          playerSeeds: players.map((p) => inTurn1("PlayerSeedGiven").find((body) => body.data.player === p)!.data.seed),
        };
        // Drawn after every die of the turn, the battle kit's too (K2, K3, K5), so it goes in just before the turn ends.
        const kitDice = bodies
          .filter((body) => (body.data as { turn?: number }).turn === 1 && "dice" in (body.data as object))
          .reduce((sum, body) => sum + (body.data as { dice: unknown[] }).dice.length, 0);
        const firstDie = initiative.data.firstDie + initiative.data.rounds.length * players.length + kitDice;
        const rounds = rollScouting(seeds, firstDie, 0, 0);
        const last = rounds.at(-1)!;
        const [scoutTotal, scoutedTotal] = [last.scout[0] + last.scout[1], last.scouted[0] + last.scouted[1]];
        const roll: EventData<"ScoutingRolled"> = {
          turn: 1,
          scouting: "t1s1",
          firstDie,
          rounds,
          scoutTotal,
          scoutedTotal,
          band: scoutingBand(scoutTotal, scoutedTotal)!,
        };
        edit(roll);
        const at = bodies.findIndex((body) => body.type === "TurnEnded");
        // Recorded at the time of the event before it: recorded times never go back.
        const envelope = { stream: initiative.stream, seq: 0, version: 1, at: bodies[at - 1]!.at, prev: "" };
        const { army, player, commitment } = activation.data;
        const scouting: Body[] = [
          {
            ...envelope,
            type: "ScoutingDeclared",
            actor: player,
            data: {
              turn: 1,
              scouting: "t1s1",
              army,
              player,
              target: target.army,
              commitment,
              order: "advance",
              salt: reveal.data.salt,
              bonus: 0,
            },
          },
          {
            ...envelope,
            type: "ScoutingAnswered",
            actor: target.player,
            data: { turn: 1, scouting: "t1s1", army: target.army, player: target.player, bonus: 0 },
          },
          { ...envelope, type: "ScoutingRolled", actor: "host", data: roll },
        ];
        bodies.splice(at, 0, ...scouting);
        rolledSeq = at + 3;
        return bodies;
      });
      return { raw, rolledSeq };
    }

    it("recomputes a scouting roll from the turn's seeds and checks the scout's revealed Advance", async () => {
      const { raw } = withScouting();
      const run = await verifyRaw(raw);
      expect(run.code, show(run)).toBe(0);
      expect(summary(run)).toMatchObject({
        rolls: held(advanced).rolls + 1,
        commitments: held(advanced).commitments + 1,
      });
    });

    it("names the seq of a roll still pending whose band cannot follow from its dice: its form is checked at once", async () => {
      const { raw, rolledSeq } = withScouting((roll) => {
        roll.band = roll.band === "scoutedTriple" ? "scoutTriple" : "scoutedTriple";
      });
      // The turn cut short before its TurnEnded: the host's seed is not out, so the roll is pending.
      const lines = raw
        .trimEnd()
        .split("\n")
        .slice(0, -1)
        .map((line) => JSON.parse(line) as RawLine);
      const ended = lines.findIndex((line) => line.kind === "event" && JSON.parse(line.body).type === "TurnEnded");
      const pending = lines.slice(0, ended);
      const run = await expectFailure(
        rawText([...pending, { kind: "head", stream: pending.at(-1)!.stream, seq: ended, hash: pending.at(-1)!.hash }]),
        rolledSeq,
        /scouting roll of turn 1 is impossible: band \w+ does not follow from totals/,
      );
      expect(run.stdout).toMatch(/^rolls: 0 recomputed \(\d+ pending/m);
    });

    it("names the seq of a scouting roll whose dice were changed and re-sealed", async () => {
      const { raw, rolledSeq } = withScouting((roll) => {
        // Other dice with the same total: a roll of possible form that only the seeds give away (every pair but 1-1
        // and 6-6 has one).
        const last = roll.rounds.at(-1)!;
        const face = (value: number) => value >= 1 && value <= 6;
        const [die, step] = [last.scout, last.scouted]
          .flatMap((pair) => [1, -1].map((by) => [pair, by] as const))
          .find(([pair, by]) => face(pair[0] + by) && face(pair[1] - by))!;
        [die[0], die[1]] = [die[0] + step, die[1] - step];
      });
      await expectFailure(raw, rolledSeq, /scouting roll of turn 1 does not recompute from the seeds/);
    });
  });
});

/**
 * D2 (docs/signatures.md): rewrites a remote player cannot catch by a head hash, re-sealed into a chain that holds, are
 * named by the verifier and by the audit, each from the log alone: a player's signed event changed, a recorded time
 * moved, an event of a keyed party written without a signature, and an envelope member nobody documented.
 */
describe("signed commands and recorded times (D2)", () => {
  /** The audit of a raw log's bodies, the chain taken as verified (it was re-sealed to hold). */
  const audited = (raw: string) => {
    const log = parseRaw(raw);
    return auditCampaign({
      stream: log.head.stream,
      events: log.bodies.map((body, i) => toCurrent({ ...body, hash: log.events[i]!.hash })),
      chain: { ok: true, stream: log.head.stream, events: log.events.length, headHash: log.head.hash },
    });
  };
  const findingsOf = (raw: string, verdict: string) =>
    audited(raw)
      .findings.filter((finding) => finding.verdict === verdict)
      .map((finding) => finding.seqs[0]);

  it("passes both demos whole, every signed command checked against its party's key in force", async () => {
    for (const log of [basic, advanced]) {
      const run = await verifyRaw(rawText([...log.events, log.head]));
      expect(run.code, show(run)).toBe(0);
      const signed = log.bodies.filter((body) => body.command).length;
      expect(signed).toBeGreaterThan(100);
      expect(run.stdout).toMatch(new RegExp(`^signatures: ${signed} signed commands verified`, "m"));
      expect(audited(rawText([...log.events, log.head])).ok).toBe(true);
    }
  });

  it("names a player's ScenarioProposed changed and re-sealed: its signed command says otherwise", async () => {
    const seq = seqOf(basic, "ScenarioProposed");
    const proposed = basic.bodies[seq - 1]!.data as EventData<"ScenarioProposed">;
    const other = proposed.scenario === "annihilation" ? "meetingEngagement" : "annihilation";
    const raw = resealed(basic, (bodies) => {
      (bodies[seq - 1]!.data as EventData<"ScenarioProposed">).scenario = other;
      return bodies;
    });
    await expectFailure(raw, seq, /its data's scenario is not the scenario of the command \S+ signed/);
    expect(findingsOf(raw, VERDICTS.notDecided)).toContain(seq);
  });

  it("names a player's event whose signature was taken away: its party has a key in force", async () => {
    const seq = seqOf(basic, "ScenarioProposed");
    const raw = resealed(basic, (bodies) => {
      delete bodies[seq - 1]!.command;
      return bodies;
    });
    await expectFailure(raw, seq, /is \S+'s, who has a key in force, but is neither signed nor written in the batch/);
    expect(findingsOf(raw, VERDICTS.unsigned)).toContain(seq);
  });

  it("names the event after a recorded time moved later past the events that follow it", async () => {
    const seq = 46;
    const later = basic.bodies[seq + 277]!.at;
    const raw = resealed(basic, (bodies) => {
      bodies[seq - 1]!.at = new Date(Date.parse(later) + 1000).toISOString();
      return bodies;
    });
    await expectFailure(raw, seq + 1, /recorded times never go back/);
    expect(findingsOf(raw, VERDICTS.timeBack)).toContain(seq + 1);
  });

  it("refuses an envelope with a member beyond the documented ones", async () => {
    const raw = resealed(basic, (bodies) => bodies);
    const lines = parseRaw(raw);
    const body = JSON.parse(lines.events[4]!.body) as Record<string, unknown>;
    const extra = canonicalJson({ ...body, note: "added" });
    const edited = { ...lines.events[4]!, body: extra, hash: sha256Hex(extra) };
    // Re-sealed from seq 5 on, so that only the member can be what fails.
    const events = [...lines.events.slice(0, 4), edited];
    let prev = edited.hash;
    for (const line of lines.events.slice(5)) {
      const next = canonicalJson({ ...(JSON.parse(line.body) as object), prev });
      events.push({ ...line, body: next, hash: (prev = sha256Hex(next)) });
    }
    const run = await verifyRaw(rawText([...events, { ...lines.head, hash: prev }]));
    expect(run.code, show(run)).toBe(1);
    expect(run.stdout).toMatch(
      /^FAIL chain at seq 5: the envelope has members beyond the documented ones: \['note'\]/m,
    );
  });
});
