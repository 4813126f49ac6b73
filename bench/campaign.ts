/**
 * Realistic logs for the benchmarks: the demo's scripted commanders play the bundled Ashfall campaign once, and its
 * turns are then re-emitted as often as needed with shifted turn numbers (and renamed battles), so that a log of any
 * length holds only events of the catalogue, in the order the rules write them, that the reducers accept.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NewEvent, StoredEvent } from "../events/index.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { nodeSigner } from "../src/crypto/sign-node.js";
import { seatKeyFromSeed, type SeatKey } from "../src/crypto/signatures.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { sha256Hex } from "../src/log/hash.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { examplePath } from "../src/setup/package-files.js";

export interface Template {
  /** CampaignCreated up to and including CampaignStarted, then the parties' keys registered before the first turn. */
  setup: NewEvent[];
  /** Each played turn, TurnStarted to TurnEnded. */
  turns: NewEvent[][];
}

/** Salts and seeds from the fixed sequence `epicwar demo` uses, so the template is its four-turn game on every run. */
function demoRandom(campaign: string): (bytes: number) => string {
  let counter = 0;
  return (bytes) =>
    sha256Hex(`${campaign}-demo-${counter++}`)
      .repeat(Math.ceil(bytes / 32))
      .slice(0, bytes * 2);
}

const asNew = ({ type, version, at, actor, data, command }: StoredEvent): NewEvent => ({
  type,
  version,
  at,
  actor,
  data,
  ...(command ? { command } : {}),
});

/** Plays Ashfall to its end with the demo's commanders in a throw-away folder and cuts its log into set-up and turns. */
export async function playTemplate(): Promise<Template> {
  const dir = await mkdtemp(join(tmpdir(), "epicwar-template-"));
  try {
    const engine = await Engine.open(dir, { sync: false, clock: () => new Date("2026-01-01T00:00:00.000Z") });
    try {
      const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      if (!created.ok) throw new Error(`template set-up refused: ${created.refusal.message}`);
      const campaign = created.state.campaign!;
      const table = new Table(engine, campaign, { secrets: new MemorySecrets(), random: demoRandom(campaign) });
      await playCampaign(table, () => {}, 30);
      return cutTemplate(await engine.store.readAll(campaign));
    } finally {
      await engine.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function cutTemplate(events: readonly StoredEvent[]): Template {
  const started = events.findIndex((e) => e.type === "CampaignStarted");
  const firstTurn = events.findIndex((e) => e.type === "TurnStarted");
  const keys = events.slice(started + 1, firstTurn).filter((e) => e.type === "SeatKeyRegistered");
  const turns: NewEvent[][] = [];
  let current: NewEvent[] | undefined;
  for (const event of events.slice(started + 1)) {
    if (event.type === "TurnStarted") turns.push((current = []));
    if (current && event.type !== "CampaignFinished") current.push(asNew(event));
    if (event.type === "TurnEnded") current = undefined;
  }
  // A turn still open when the play stopped is left out: every template turn runs from TurnStarted to TurnEnded.
  if (current) turns.pop();
  return { setup: [...events.slice(0, started + 1), ...keys].map(asNew), turns };
}

/** Events that only make sense where the battles that cause them happened, left out of battle-free turns. */
const BATTLE_AND_RESERVE_TYPES = new Set([
  "BattleStarted",
  "BattleResultReported",
  "BattleResultRejected",
  "BattleResolved",
  "ArmyRouted",
  "ArmyWithdrew",
  "ArmyOccupied",
  "TransitArrived",
  "FormationsBrokenDown",
  "ArmyDisbanded",
  "ArmyRaised",
  "FormationReinforced",
  "FormationReplaced",
  "FormationsTraded",
  // The battle kit: each of its events belongs to a battle.
  "ScenarioProposed",
  "ScenarioAnswered",
  "ScenarioChosen",
  "ScenarioRolled",
  "BattleConditionsRolled",
  "EnclosedAgreed",
  "BattleTurnEnded",
  "GravityFluxRolled",
  "WhiteOutRolled",
  "HitsAllocated",
  "SavesRolled",
  "BarrageCalled",
  "BarrageRolled",
]);

export interface TurnOptions {
  /** Keep the battles and what follows from them (default true); without, a turn is activations, moves and reveals. */
  battles?: boolean;
}

/**
 * Turn `turn` of a synthetic campaign: template turn ((turn - 1) mod T) + 1 with every turn number shifted to `turn`
 * and its battles renamed after the new turn.
 */
export function syntheticTurn(template: Template, turn: number, options: TurnOptions = {}): NewEvent[] {
  const index = (turn - 1) % template.turns.length;
  const shift = turn - (index + 1);
  const battles = options.battles ?? true;
  const out: NewEvent[] = [];
  for (const event of template.turns[index]!) {
    if (!battles && (BATTLE_AND_RESERVE_TYPES.has(event.type) || (event.data as { how?: string }).how === "battle"))
      continue;
    // A replaced formation is gone for good: replacing it again in a later cycle would leave the next cycle's
    // battles naming a formation the army no longer has.
    if (event.type === "FormationReplaced") continue;
    const data = { ...(event.data as Record<string, unknown>) };
    if (typeof data["turn"] === "number") data["turn"] = turn;
    if (typeof data["sentTurn"] === "number") data["sentTurn"] = (data["sentTurn"] as number) + shift;
    if (typeof data["battle"] === "string") data["battle"] = (data["battle"] as string).replace(/^t\d+b/, `t${turn}b`);
    out.push({ ...event, data });
  }
  return out;
}

/** A campaign of `turns` turns: the set-up, then one synthetic turn after another. */
export function* syntheticCampaign(
  template: Template,
  turns: number,
  options: TurnOptions = {},
): Generator<NewEvent[]> {
  yield template.setup;
  for (let turn = 1; turn <= turns; turn++) yield syntheticTurn(template, turn, options);
}

/** The bench's own key of each party, from a fixed seed, and the campaign id its commands are signed for. */
export interface BenchKeys {
  campaign: string;
  parties: Map<string, { key: SeatKey; sign: (text: string) => string }>;
}

/** A key for each party whose key the template registers. */
export async function benchKeys(template: Template): Promise<BenchKeys> {
  const parties: BenchKeys["parties"] = new Map();
  for (const { type, actor } of template.setup) {
    if (type !== "SeatKeyRegistered") continue;
    const key = await seatKeyFromSeed(sha256Hex(`bench-key-${actor}`));
    parties.set(actor, { key, sign: nodeSigner(key) });
  }
  const campaign = (template.setup[0]!.data as { campaign: string }).campaign;
  return { campaign, parties };
}

/**
 * The event as its party would have signed it where it is written: a registered key is the bench's key of its party,
 * and a signed command's text is bound to the stream and the seq before the event, then signed by the bench's key
 * (docs/signatures.md), so that the log verifies as a played one does.
 */
function signedAt(event: NewEvent, stream: string, seq: number, keys: BenchKeys): NewEvent {
  const key = keys.parties.get(event.actor);
  if (!key) return event;
  const data =
    event.type === "SeatKeyRegistered" ? { ...(event.data as object), publicKey: key.key.publicKey } : event.data;
  if (!event.command) return { ...event, data };
  const text = JSON.parse(event.command.signed) as { line: string; seq: number; command: Record<string, unknown> };
  text.line = stream;
  text.seq = seq - 1;
  if (text.command["type"] === "RegisterSeatKey") text.command["publicKey"] = key.key.publicKey;
  const signed = canonicalJson(text);
  return { ...event, data, command: { signed, signature: key.sign(signed) } };
}

/**
 * Appends a synthetic campaign to a stream in big unsynced batches, its commands signed again by `keys` for where they
 * are written; stops once `maxEvents` are written (if given).
 */
export async function writeCampaign(
  engine: Engine,
  stream: string,
  batches: Iterable<NewEvent[]>,
  keys: BenchKeys,
  options: { maxEvents?: number; batchSize?: number; onProgress?: (written: number) => void } = {},
): Promise<number> {
  const max = options.maxEvents ?? Infinity;
  const batchSize = options.batchSize ?? 5000;
  let seq = (await engine.store.head(stream)).seq;
  let pending: NewEvent[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    seq += (await engine.store.append(stream, seq, pending, { sync: false })).length;
    pending = [];
    options.onProgress?.(seq);
  };
  for (const batch of batches) {
    for (const event of batch) {
      if (seq + pending.length >= max) break;
      pending.push(signedAt(event, stream, seq + pending.length + 1, keys));
    }
    if (pending.length >= batchSize) await flush();
    if (seq + pending.length >= max) break;
  }
  await flush();
  return seq;
}
