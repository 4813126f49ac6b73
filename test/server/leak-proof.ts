/**
 * The leak-proof property over the wire (issue 14), for the fast tier (test/server/leak-proof.test.ts) and the slow
 * tier's soak (test/slow/server-leak-soak.test.ts): random campaigns under fog of war (A2) and commanders (A6),
 * played through a real server by two player clients, each with its own secrets, and the server taking the host's
 * chores. At many points, every read endpoint and the live feed are drained as each seat (both players and the
 * organiser); no byte of any answer may hold a secret that seat may not have then. The secrets come from the truth: the
 * log as stored, each player's secrets and the server's secrets folder (the host's dice seeds).
 */
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { HOST } from "../../events/common.js";
import { toCurrent, type CurrentEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import { branchStream, createBranch } from "../../replays/branches.js";
import { secretsOfLog } from "../../src/client/secrets.js";
import { Replays } from "../../replays/replayer.js";
import { dueChores } from "../../src/client/chores.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { freeSpares, leaderlessArmyCommand } from "../../src/demo/commanders.js";
import { HIDDEN } from "../../src/views/view.js";
import { chance, pick, RandomPlayer, type Gen, type Plain } from "../support/campaign-player.js";
import { goldenSetup } from "../support/fixtures.js";
import {
  commanderFates,
  commanderTokens,
  PUBLIC_POINTS_EVENTS,
  RecordingSecrets,
  shownPointsFields,
  statePointsShown,
  uniqueCommander,
} from "../support/secret-search.js";
import { ashfallSetup, auth, openFeed, PlayerClient, startTestServer, type TestServer } from "./support.js";

// ---------------------------------------------------------------------------------------------------------------
// What a seat may not have

/** One secret as it would be written: an exact text, or a pattern where JSON could write it more than one way. */
interface Secret {
  kind: SecretKind;
  what: string;
  text?: string;
  pattern?: RegExp;
}
type SecretKind = "salt" | "player seed" | "host seed" | "commander";

/** The truth of a line at one moment: its log as stored, every party's secrets, and whether fog of war is on. */
export interface Truth {
  stream: string;
  events: CurrentEvent[];
  /** The log as stored, as text: a salt or seed found in it has been revealed to everyone. */
  stored: string;
  players: string[];
  playerSecrets: Map<string, RecordingSecrets>;
  /** The host's dice seeds by turn, read from the server's secrets folder. */
  hostSeeds: Record<string, string>;
  fog: boolean;
}

/**
 * The secrets `seat` may not have now: the other side's orders and salts not yet revealed and its dice seeds not yet
 * given (for the organiser, every player's), the host's dice seeds not yet revealed, and for a player the other side's
 * living commanders (S8).
 */
export function secretsHiddenFrom(truth: Truth, seat: string): Secret[] {
  const secrets: Secret[] = [];
  const unrevealed = (text: string) => !truth.stored.includes(text);
  for (const [player, kept] of truth.playerSecrets) {
    if (player === seat) continue;
    for (const o of kept.orders.filter((o) => unrevealed(o.salt)))
      secrets.push({
        kind: "salt",
        what: `${player}'s hidden order for ${o.army} in turn ${o.turn} (its salt)`,
        text: o.salt,
      });
    for (const s of kept.playerSeeds.filter((s) => unrevealed(s.seed)))
      secrets.push({
        kind: "player seed",
        what: `${player}'s dice seed for turn ${s.turn}, not yet given`,
        text: s.seed,
      });
  }
  for (const [turn, seed] of Object.entries(truth.hostSeeds).filter(([, seed]) => unrevealed(seed)))
    secrets.push({ kind: "host seed", what: `the host's dice seed for turn ${turn}, not yet revealed`, text: seed });
  if (seat !== HOST)
    for (const [army, fate] of commanderFates(truth.events)) {
      if (fate.player === seat || fate.killed) continue;
      const { unitType, formation } = fate.commander;
      for (const pattern of commanderTokens(fate.commander))
        secrets.push({ kind: "commander", what: `${fate.player}'s living commander of ${army}`, pattern });
      secrets.push({
        kind: "commander",
        what: `${fate.player}'s living commander of ${army} in words`,
        text: `${unitType} of ${formation}`,
      });
    }
  return secrets;
}

/** The secrets found in an answer's bytes. */
function secretsIn(body: string, secrets: readonly Secret[]): string[] {
  return secrets
    .filter((s) => (s.text !== undefined ? body.includes(s.text) : s.pattern!.test(body)))
    .map((s) => s.what);
}

/** A player's state as the server answers it: fog of war shows some of its parts as HIDDEN. */
type StateView = {
  armies: Record<string, { formations: unknown }>;
  battles?: Record<string, { turn?: unknown }>;
  ledgers: Record<string, { reserves: unknown }>;
  heldOrders?: Record<string, string>;
};

/** A2: the points fields, rosters and Reserves of the other side a player's state view shows. */
function fogLeaksInState(view: StateView, truth: CampaignState, seat: string): string[] {
  const shown = shownPointsFields(view)
    .filter((path) => !statePointsShown(truth, seat, path, view))
    .map((path) => `points at ${path.join(".")}`);
  for (const army of Object.values(truth.armies).filter((a) => a.player !== seat))
    if (view.armies[army.id]?.formations !== HIDDEN) shown.push(`the roster of ${army.id}`);
  for (const player of Object.keys(truth.ledgers).filter((p) => p !== seat))
    if (view.ledgers[player]?.reserves !== HIDDEN) shown.push(`the Reserves of ${player}`);
  const held = view.heldOrders ?? {};
  for (const army of Object.keys(held).filter((a) => truth.armies[a]?.player !== seat))
    shown.push(`the held order of ${army}`);
  return shown;
}

export type EventLike = { seq: number; type: string; data: { player?: string; formations?: unknown; units?: unknown } };

/** A2: the points, rosters and units of the other side's events (public ones aside) a player's events show. */
export function fogLeaksInEvents(events: readonly EventLike[], seat: string): string[] {
  return events
    .filter((e) => e.data.player !== undefined && e.data.player !== seat && !PUBLIC_POINTS_EVENTS.has(e.type))
    .flatMap((e) => [
      ...shownPointsFields(e.data).map((path) => `${e.type} #${e.seq} ${path.join(".")}`),
      ...(["formations", "units"] as const)
        .filter((field) => field in e.data && e.data[field] !== HIDDEN)
        .map((field) => `${e.type} #${e.seq} ${field}`),
    ]);
}

/**
 * A2: an event of the other side in words names none of its points: each number its points fields hold in the log
 * as stored, written as the words write points ("1,250 points", "1,250 pts").
 */
export function fogLeaksInTimeline(entries: ReadonlyArray<{ seq: number; text: string }>, truth: Truth, seat: string) {
  const bySeq = new Map(truth.events.map((e) => [e.seq, e as unknown as EventLike]));
  return entries.flatMap((entry) => {
    const event = bySeq.get(entry.seq);
    if (!event || fogLeaksInEvents([event], seat).length === 0) return [];
    return shownPointsNumbers(event.data)
      .filter((value) => new RegExp(`\\b${value.toLocaleString("en")} (points|pts)\\b`).test(entry.text))
      .map((value) => `${event.type} #${event.seq} in words shows ${value} points`);
  });
}

/** The numbers a value's points fields hold. */
const shownPointsNumbers = (value: object): number[] =>
  shownPointsFields(value)
    .map((path) => path.reduce<unknown>((inner, key) => (inner as Record<string, unknown>)[key], value))
    .filter((inner): inner is number => typeof inner === "number");

/** A2: the other side's armies' points and Reserves in a diff's summaries of two lines. */
function fogLeaksInDiff(diff: { a: DiffSide; b: DiffSide }, seat: string): string[] {
  return [diff.a, diff.b].flatMap((side) => [
    ...Object.entries(side.armies)
      .filter(([, army]) => army.player !== seat && army.points !== HIDDEN)
      .map(([id]) => `${side.line}: the points of ${id}`),
    ...Object.entries(side.reserves)
      .filter(([player, reserves]) => player !== seat && reserves !== HIDDEN)
      .map(([player]) => `${side.line}: the Reserves of ${player}`),
  ]);
}
type DiffSide = {
  line: string;
  armies: Record<string, { player: string; points: unknown }>;
  reserves: Record<string, unknown>;
};

// ---------------------------------------------------------------------------------------------------------------
// Reading everything as a seat

/** A campaign served, its seats' tokens, the players' clients and the port its feed listens on. */
export interface Served {
  server: TestServer;
  campaign: string;
  port: number;
  clients: Map<string, PlayerClient>;
  secretsDir: string;
}

export async function truthOf(served: Served, stream: string): Promise<Truth> {
  const { engine } = served.server;
  const stored = await engine.store.readAll(stream);
  const events = stored.map(toCurrent);
  const setup = (await engine.state(stream)).setup!;
  let hostSeeds: Record<string, string> = {};
  try {
    const file = join(served.secretsDir, served.campaign, `${HOST}.json`);
    hostSeeds = (JSON.parse(await readFile(file, "utf8")) as { hostSeeds?: Record<string, string> }).hostSeeds ?? {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return {
    stream,
    events,
    stored: JSON.stringify(stored),
    players: setup.players.map((p) => p.id),
    playerSecrets: new Map([...served.clients].map(([player, client]) => [player, client.secrets as RecordingSecrets])),
    hostSeeds,
    fog: setup.options.advanced?.fogOfWar === true,
  };
}

/** What a check found wrong in one answer: where, and each leak. */
type Finding = string;

/** Every leak in one answer's bytes, and for a player under fog of war in the fields that hold points. */
function leaksInAnswer(what: string, body: string, truth: Truth, seat: string, fog: () => string[] = () => []) {
  const found = secretsIn(body, secretsHiddenFrom(truth, seat));
  if (seat !== HOST && truth.fog) found.push(...fog());
  return found.map((leak) => `${seat} ${what}: ${leak}`);
}

/**
 * Reads every endpoint as `seat` (the state now and at earlier points, the log, timeline, audit, branches, a diff
 * with a branch, who is waited on, and the feed from an earlier seq) and returns every leak found.
 */
export async function readEverything(
  served: Served,
  seat: string,
  g: Gen,
  branch: string | undefined,
): Promise<Finding[]> {
  const { server, campaign } = served;
  const main = await truthOf(served, campaign);
  const findings: Finding[] = [];
  const get = async (path: string) => {
    const answer = await server.app.inject({
      method: "GET",
      url: `/campaigns/${campaign}/${path}`,
      headers: auth(server.tokens[seat]!),
    });
    expect(answer.statusCode, `${seat} GET ${path}: ${answer.body}`).toBe(200);
    return answer;
  };
  const replays = new Replays(server.engine.store);
  const lines: Array<{ truth: Truth; query: string }> = [{ truth: main, query: "" }];
  if (branch !== undefined)
    lines.push({ truth: await truthOf(served, branchStream(campaign, branch)), query: `branch=${branch}` });

  for (const { truth, query } of lines) {
    const q = (more: string) => [query, more].filter(Boolean).join("&");
    const lineHead = truth.events.length;
    const turn = truth.events.filter((e) => e.type === "TurnStarted").length;
    // One read of each kind, the point each reads chosen at random: a past state by seq or turn, the log from a seq.
    const earlier =
      turn > 0 && chance(g, 30) ? `turn=${g(fc.integer, { min: 1, max: turn })}` : `seq=${pick(g, truth.events).seq}`;
    for (const at of ["", earlier]) {
      const path = `state?${q(at)}`;
      const answer = await get(path);
      const { seq, state } = answer.json<{ seq: number; state: StateView }>();
      const truthThen = (await replays.stateAtSeq(truth.stream, seq)).state;
      findings.push(...leaksInAnswer(path, answer.body, truth, seat, () => fogLeaksInState(state, truthThen, seat)));
    }
    const log = await get(`log?${q(chance(g, 50) ? "" : `after=${g(fc.nat, lineHead - 1)}`)}`);
    findings.push(
      ...leaksInAnswer("log", log.body, truth, seat, () =>
        fogLeaksInEvents(log.json<{ events: EventLike[] }>().events, seat),
      ),
    );
    const timeline = await get(`timeline?${q("")}`);
    const { entries } = timeline.json<{ entries: Array<{ seq: number; text: string }> }>();
    findings.push(
      ...leaksInAnswer("timeline", timeline.body, truth, seat, () => fogLeaksInTimeline(entries, truth, seat)),
    );
    const audit = await get(
      `audit?${q(turn > 0 && chance(g, 50) ? `turn=${g(fc.integer, { min: 1, max: turn })}` : "")}`,
    );
    // The audit checks orders, seeds and rolls: no part of it holds points, so any points field shown is a leak.
    findings.push(
      ...leaksInAnswer("audit", audit.body, truth, seat, () =>
        shownPointsFields(audit.json()).map((at) => `points at ${at.join(".")}`),
      ),
    );
    const waiting = await get(`waiting?${q("")}`);
    findings.push(...leaksInAnswer("waiting", waiting.body, truth, seat));
    // K1-K5: a battle's sheet, drawn from the seat's view like the state.
    const battles = truth.events.filter((e) => e.type === "BattleStarted");
    if (battles.length > 0) {
      const battle = (pick(g, battles).data as { battle: string }).battle;
      const sheet = await get(`battles/${battle}/sheet?${q("")}`);
      findings.push(...leaksInAnswer(`battles/${battle}/sheet`, sheet.body, truth, seat));
    }

    // The feed from an earlier point (a client reconnecting), drained up to the line's head.
    const after = g(fc.nat, lineHead - 1);
    const feed = openFeed(
      served.port,
      { ...auth(server.tokens[seat]!), "last-event-id": String(after) },
      `/campaigns/${campaign}/feed?${q("")}`,
    );
    try {
      const events = await feed.waitForSeq(lineHead);
      expect(events.map((e) => e.id)).toEqual(Array.from({ length: lineHead - after }, (_, i) => after + 1 + i));
      findings.push(
        ...leaksInAnswer(`feed?${q("")} after ${after}`, feed.text(), truth, seat, () =>
          fogLeaksInEvents(
            events.map((e) => e.data as EventLike),
            seat,
          ),
        ),
      );
    } finally {
      feed.close();
    }
  }
  const branches = await get("branches");
  findings.push(...leaksInAnswer("branches", branches.body, main, seat));
  const diff = await get(`diff?a=main&b=${branch ?? "main"}`);
  findings.push(
    ...leaksInAnswer("diff", diff.body, main, seat, () =>
      fogLeaksInDiff(diff.json<{ a: DiffSide; b: DiffSide }>(), seat),
    ),
  );
  // The odds from the seat's view (issue 18): a forecast draws what the seat may not see and answers only with
  // aggregates, so no byte of it may name a secret, on one line or comparing main with the branch. A line still in
  // set-up has nothing to forecast (refused, as the route's own test shows).
  const begun = lines.filter(({ truth }) => truth.events.some((e) => e.type === "TurnStarted"));
  if (begun[0]?.truth !== main) return findings;
  const forecast = await server.app.inject({
    method: "POST",
    url: `/campaigns/${campaign}/forecast`,
    headers: auth(server.tokens[seat]!),
    payload: {
      runs: 2,
      turns: 1,
      seed: String(g(fc.nat)),
      ...(begun.length === 2 && chance(g, 50) ? { compare: ["main", branch] } : {}),
    },
  });
  expect(forecast.statusCode, `${seat} POST forecast: ${forecast.body}`).toBe(200);
  findings.push(...leaksInAnswer("forecast", forecast.body, main, seat));
  return findings;
}

/**
 * A player's commands that poke at one of the other side's armies (its order, its commander's formation): each is
 * refused, leaves the log as it was, and its refusal quotes none of that side's secrets.
 */
async function probeOtherSide(served: Served, seat: string, g: Gen): Promise<Finding[]> {
  const { server, campaign } = served;
  const truth = await truthOf(served, campaign);
  const enemies = [...commanderFates(truth.events)].filter(([, fate]) => fate.player !== seat);
  if (enemies.length === 0) return [];
  const [army, { commander }] = pick(g, enemies);
  const head = await server.engine.store.head(campaign);
  const findings: Finding[] = [];
  for (const probe of [
    { type: "RevealOrder", army, order: "advance", salt: "0123456789abcdef".repeat(2) },
    { type: "ActivateArmy", army, commitment: "0".repeat(64), path: [] },
    { type: "ReinforceFormation", army, formation: commander.formation },
    { type: "BreakDown", army, formations: [commander.formation] },
    { type: "ReplaceFormation", army, formation: commander.formation, with: { id: "x1", formation: "line-company" } },
    { type: "DisbandArmy", army },
  ]) {
    const answer = await server.app.inject({
      method: "POST",
      url: `/campaigns/${campaign}/commands`,
      headers: auth(server.tokens[seat]!),
      payload: { expectedSeq: head.seq, commands: [{ actor: seat, ...probe }] },
    });
    expect(answer.statusCode, `${seat}'s ${probe.type} of ${army}: ${answer.body}`).toBeGreaterThanOrEqual(400);
    expect(answer.statusCode).toBeLessThan(500);
    findings.push(...leaksInAnswer(`${probe.type} of ${army} refused`, answer.body, truth, seat));
  }
  expect(await server.engine.store.head(campaign), "refused probes leave the log as it was").toEqual(head);
  return findings;
}

// ---------------------------------------------------------------------------------------------------------------
// Playing through the server

const FIXTURES = ["battle-ready.json", "ashfall"] as const;

/** A set-up under fog of war and A6 commanders, every commander's formation renamed to an id found nowhere else. */
export async function foggedSetup(fixture: (typeof FIXTURES)[number]) {
  const setup = (fixture === "ashfall" ? await ashfallSetup() : goldenSetup(fixture)) as ReturnType<typeof goldenSetup>;
  return {
    ...setup,
    options: { ...setup.options, advanced: { ...setup.options?.advanced, fogOfWar: true, commanders: true } },
    armies: (setup.armies ?? []).map((army) => uniqueCommander(army.id, army)),
  };
}

/** Posts a decision as its seat: a player's through its client (which keeps its secrets), the organiser's as written. */
async function submit(served: Served, command: Plain) {
  const { server, campaign } = served;
  if (command.actor !== HOST) return served.clients.get(command.actor)!.submit(command);
  return server.app.inject({
    method: "POST",
    url: `/campaigns/${campaign}/commands`,
    headers: auth(server.tokens[HOST]!),
    payload: { expectedSeq: (await server.engine.store.head(campaign)).seq, commands: [command] },
  });
}

/** Totals over the runs, to show the property searched for what it claims to: each kind of secret, while hidden. */
interface Totals {
  runs: number;
  commands: number;
  /** Every endpoint read as one seat at one point. */
  reads: number;
  battles: number;
  reveals: number;
  /** Hidden secrets searched for in the reads, by kind (each counted at every read it was hidden in). */
  hidden: Record<SecretKind, number>;
}

/**
 * A campaign of this set-up served on a listening port (for the feed), its players' clients each keeping its own
 * secrets. `configure` adds to the app before it first answers.
 */
export async function startServed(
  setup: { campaign: string },
  seed: number,
  configure?: (app: FastifyInstance) => void,
): Promise<Served> {
  // Without fsync: what is searched is the answers, not the log's durability, and a run appends hundreds of events.
  const server = await startTestServer({ setup, engine: { sync: false }, ...(configure ? { configure } : {}) });
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  const { campaign } = setup;
  const players = Object.keys(server.tokens).filter((seat) => seat !== HOST);
  return {
    server,
    campaign,
    port: (server.app.server.address() as AddressInfo).port,
    secretsDir: join(server.dir, "db-secrets"),
    clients: new Map(
      players.map((player) => [
        player,
        new PlayerClient(server, player, {
          campaign,
          secrets: new RecordingSecrets(),
          random: sequenceRandomHex(`${seed}-${player}`),
        }),
      ]),
    ),
  };
}

/** The next command of a random campaign: a player's chore when one is due (its client takes it), else a decision. */
export function nextStep(served: Served, state: CampaignState, player: RandomPlayer): Step {
  const chore = dueChores(state, new Set(served.clients.keys()))[0];
  const decision = chore
    ? { command: chore as Plain, why: "a player's chore" }
    : (leaderlessArmy(state) ?? withCommanders(state, player.decide(state)));
  if (!decision) throw new Error(`nobody can decide at turn ${state.turn}, ${state.phase} phase`);
  if (decision.command.type !== "RaiseArmy") return decision;
  const army = String(decision.command["army"]);
  return { ...decision, command: uniqueCommander(army, decision.command as Plain & RaisedArmy) };
}

/** Posts a step as its seat and expects it applied. */
export async function play(served: Served, step: Step) {
  const answer = await submit(served, step.command);
  expect(answer.statusCode, `${step.why}: ${JSON.stringify(step.command)}: ${answer.body}`).toBe(200);
  return answer;
}

/**
 * One random campaign played through the server. Every seat follows the live feed from the start and every command's
 * answer is checked as it comes; at the stops (and at the end) every seat reads everything.
 */
async function playAndRead(g: Gen, options: { maxTurns: number; stops: number }, totals: Totals): Promise<void> {
  const setup = await foggedSetup(pick(g, FIXTURES));
  const served = await startServed(setup, g(fc.integer));
  const { server, campaign } = served;
  const seats = Object.keys(server.tokens);
  const feeds = new Map<string, ReturnType<typeof openFeed>>();
  try {
    for (const seat of seats)
      feeds.set(seat, openFeed(served.port, auth(server.tokens[seat]!), `/campaigns/${campaign}/feed`));
    const feedChecked = new Map(seats.map((seat) => [seat, 0]));
    /** Checks the answers to commands, then every byte each live feed sent since it was last checked. */
    const checkAnswers = async (answers: Array<{ seat: string; body: string }>) => {
      const truth = await truthOf(served, campaign);
      const findings = answers.flatMap(({ seat, body }) =>
        leaksInAnswer("command answer", body, truth, seat, () =>
          fogLeaksInEvents(JSON.parse(body).events as EventLike[], seat),
        ),
      );
      for (const [seat, feed] of feeds) {
        const events = await feed.waitForSeq(truth.events.length);
        const from = feedChecked.get(seat)!;
        feedChecked.set(seat, events.length);
        findings.push(
          ...leaksInAnswer("live feed", feed.text(), truth, seat, () =>
            fogLeaksInEvents(
              events
                .slice(from)
                .filter((e) => e.event === "event")
                .map((e) => e.data as EventLike),
              seat,
            ),
          ),
        );
      }
      expect(findings).toEqual([]);
    };

    /** The seqs at which a command's events (and the host's chores after it) end. */
    const boundaries = [(await server.engine.store.head(campaign)).seq];
    const turns = g(fc.integer, { min: 1, max: options.maxTurns });
    let stops = 0;
    const player = new RandomPlayer(g);
    let branch: string | undefined;
    for (;;) {
      const state = await server.engine.state(campaign);
      const last = state.status === "finished" || state.turn > turns;
      // Chores are steps too: a stop may fall between two players' seeds, or between an activation and its reveal
      // (likelier there: a hidden order is what the other side would most like to read).
      const hiddenOrder = Object.values(state.turnState?.activations ?? {}).some((a) => a.order === null);
      const stop = stops < options.stops && chance(g, hiddenOrder ? 15 : 3);
      if (stop) stops++;
      if (stop || last) {
        if (branch === undefined && state.seq > 1) {
          branch = "whatif";
          const replays = new Replays(server.engine.store);
          // Forked between two commands, as a what-if is: inside one, the line would stop at a state no command left.
          const from = { seq: pick(g, boundaries) };
          // The host's secrets sign the branch's first event where the fork voids commitments open at it.
          const hostSecrets = (line: string) => secretsOfLog(served.secretsDir, line, server.engine.store);
          await createBranch(server.engine, replays, {
            campaign,
            parent: campaign,
            from,
            name: branch,
            secrets: { parent: hostSecrets(campaign), branch: hostSecrets(branchStream(campaign, branch)) },
          });
        }
        const truth = await truthOf(served, campaign);
        for (const seat of seats) {
          expect(await readEverything(served, seat, g, branch)).toEqual([]);
          if (seat !== HOST) expect(await probeOtherSide(served, seat, g)).toEqual([]);
          for (const secret of secretsHiddenFrom(truth, seat)) totals.hidden[secret.kind]++;
          totals.reads++;
        }
      }
      if (last) break;
      const step = nextStep(served, state, player);
      const answer = await play(served, step);
      boundaries.push(answer.json<{ seq: number }>().seq);
      await checkAnswers([{ seat: step.command.actor, body: answer.body }]);
      totals.commands++;
    }
    const events = (await truthOf(served, campaign)).events;
    totals.battles += events.filter((e) => e.type === "BattleResolved").length;
    totals.reveals += events.filter((e) => e.type === "OrderRevealed").length;
    totals.runs++;
  } finally {
    for (const feed of feeds.values()) feed.close();
    await served.server.close();
  }
}
type RaisedArmy = Parameters<typeof uniqueCommander>[1];
/** The next command of a run and why it is given. */
type Step = { command: Plain; why: string };

/**
 * A6: a player raises an army only with a spare commander of the unit type the new army names (the random player does
 * not know A6); else it finishes its End phase instead.
 */
function withCommanders(state: CampaignState, decision: Step | undefined): Step | undefined {
  if (decision?.command.type !== "RaiseArmy") return decision;
  const { actor, commander } = decision.command as Plain & RaisedArmy;
  if (freeSpares(state, actor).some((spare) => spare.unitType === commander.unitType)) return decision;
  return { command: { actor, type: "FinishEndPhase" }, why: "A6 no spare commander of the type" };
}

/** A6 in the End phase: a player's army whose commander fell gets a new one (as the demo's players do) before all else. */
function leaderlessArmy(state: CampaignState): Step | undefined {
  if (state.phase !== "end" || !state.turnState) return undefined;
  for (const player of state.setup!.players.map((p) => p.id)) {
    if (state.turnState.endPhaseDone.includes(player)) continue;
    const command = leaderlessArmyCommand(state, player);
    if (command) return { command: command as Plain, why: "A6 a new commander" };
  }
  return undefined;
}

/**
 * Runs the property over `numRuns` random campaigns of up to `maxTurns` turns, every seat reading everything at up to
 * `stops` points of each and at its end; fails unless every kind of secret was searched for while hidden.
 */
export async function checkRandomCampaigns(options: { numRuns: number; maxTurns: number; stops: number }) {
  const totals: Totals = {
    runs: 0,
    commands: 0,
    reads: 0,
    battles: 0,
    reveals: 0,
    hidden: { salt: 0, "player seed": 0, "host seed": 0, commander: 0 },
  };
  await fc.assert(
    fc.asyncProperty(fc.gen(), (g) => playAndRead(g, options, totals)),
    // A failing run is reported as found (its seed and path replay it), not shrunk: each run starts a server.
    { numRuns: options.numRuns, endOnFailure: true },
  );
  console.info(JSON.stringify(totals));
  // Not vacuous: every kind of secret was hidden from some seat while the answers were searched for it.
  expect(
    Object.values(totals.hidden).every((n) => n > 0),
    JSON.stringify(totals.hidden),
  ).toBe(true);
}
