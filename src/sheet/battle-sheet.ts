import type { BattleKitOptions, Order, Square, Terrain } from "../../events/common.js";
import type { BattleConditions, Scenario, TargetUnit } from "../../events/kit-common.js";
import type { BarrageState, BattleKitState } from "../../projections/battle-kit.js";
import {
  ATMOSPHERE_TABLE,
  BLIZZARD_TABLE,
  BUILT_UP_ROAD_GUIDE,
  DEFAULT_TURN_LIMIT,
  EDGE_NAMES,
  GRAVITY_NAMES,
  LIGHT_TABLE,
  RAIN_TABLE,
  ROAD_GUIDE,
  TERRAIN_GUIDE,
  WORLD_ATMOSPHERE_NAMES,
  rollsConditions,
  scenarioText,
  turnByTurn,
  type ConditionBand,
} from "../../projections/battle-kit-tables.js";
import { battleEngagement } from "../../projections/derived.js";
import { sameSquare, terrainAt } from "../../projections/grid.js";
import type { CampaignView, Hidden } from "../views/view.js";

/**
 * Every battle's sheet as data (K1-K3, K5 with B2-B4): a pure function of a seat's view of the campaign, so that the
 * CLI's text, the JSON and a web page show the same sheet. It reads only the view: what the seat may not see stays
 * hidden (fog of war, A2).
 */

export interface SheetSide {
  army: string;
  player: string;
  points: number | Hidden;
  order: Order | null;
}

/** K2 on the sheet. */
export interface SheetScenario {
  key: Scenario;
  name: string;
  setUp: string;
  victory: string;
  /** x, for a scenario played for x turns; null for Recover. */
  turnLimit: number | null;
  objectives: "used" | "none" | "either";
  /** How it was settled, in words: "rolled (d7 4)", "proposed by red, accepted by blue", "chosen by blue". */
  settled: string;
  /** An Assassination's target. */
  target: string | null;
}

/** K3: one condition's row: what was rolled, the band's name, the seed's effect and the level turn by turn. */
export interface SheetCondition {
  condition: "Light" | "Rain" | "Blizzard" | "Atmosphere" | "Gravity";
  /** The d6 (or dice) rolled, in words; null for a world's fixed setting. */
  roll: string | null;
  name: string;
  effect: string;
  byTurn: string;
  /** What follows from the levels: rain's mud. */
  note?: string;
}

/** K5: one volley as the assistant allocated it, with its saves once rolled. */
export interface SheetVolley {
  id: string;
  player: string;
  hits: string;
  /** Per unit hit, closest first, once the saves are rolled (the dice settle where a TK hit leaves the rest): its hits and saves. */
  units: Array<{ unit: string; kind: TargetUnit["kind"]; distanceCm: number; hits: string[]; saves: string | null }>;
  unallocated: number;
  destroyed: string[] | null;
}

/** K5 (Heresy): a barrage as the battle kit records it. */
export type SheetBarrage = BarrageState;

export interface BattleSheet {
  battle: string;
  turn: number;
  at: Square;
  status: "pending" | "reported" | "resolved";
  attacker: SheetSide;
  defender: SheetSide;
  averagePoints: number | Hidden;
  vpTarget: number | Hidden;
  defences: number | Hidden;
  /** B2 with A3: the engagement's effects, once both orders are known. */
  engagement: string | null;
  /** K1 */
  terrain: { terrain: Terrain; road: boolean; guide: string[] };
  /** K2: null when the campaign sets no scenario; `pending` says who settles it while it is not. */
  scenario: SheetScenario | { pending: string } | null;
  /** K3: null when the campaign rolls no condition and its world is normal. */
  conditions: { rows: SheetCondition[]; pending: boolean } | null;
  /** K3: a city battle: whether it is enclosed; null elsewhere. */
  enclosed: boolean | null;
  /** K5 */
  volleys: SheetVolley[];
  barrages: SheetBarrage[];
  /** B4: the result once resolved. */
  result: {
    winner: string | null;
    overwhelming: boolean;
    vp: [number, number];
    /** B4: "model" when the battle model drew the result (`options.battles: "model"`), "players" when they agreed it. */
    resolvedBy: "model" | "players";
  } | null;
}

export function battleSheet(view: CampaignView, id: string): BattleSheet | null {
  const battle = view.battles[id];
  const setup = view.setup;
  if (!battle || !setup) return null;
  const kit = setup.options.battleKit;
  const terrain = terrainAt(setup.map, battle.at);
  const road = setup.map.roads.some((square) => sameSquare(square, battle.at));
  const state = battle.kit as BattleKitState | undefined;
  const turns = turnsShown(kit, state);
  const side = (s: typeof battle.defender): SheetSide => ({
    army: s.army,
    player: s.player,
    points: s.points,
    order: s.order,
  });
  return {
    battle: battle.id,
    turn: battle.turn,
    at: battle.at,
    status: battle.status,
    attacker: side(battle.attacker),
    defender: side(battle.defender),
    averagePoints: battle.averagePoints,
    vpTarget: battle.vpTarget,
    defences: battle.defences,
    engagement: battleEngagement(battle)?.effect ?? null,
    terrain: {
      terrain,
      road,
      guide: [
        TERRAIN_GUIDE[terrain],
        ...(road ? [ROAD_GUIDE] : terrain === "town" || terrain === "city" ? [BUILT_UP_ROAD_GUIDE] : []),
      ],
    },
    scenario: kit?.scenario && state ? sheetScenario(kit, state, battle) : null,
    conditions: kit && state ? sheetConditions(kit, state, turns) : null,
    enclosed: terrain === "city" && state ? state.enclosed : null,
    volleys: Object.values(state?.volleys ?? {}).map(sheetVolley),
    barrages: Object.values(state?.barrages ?? {}).map((b) => ({ ...b })),
    result:
      battle.status === "resolved" && battle.result
        ? {
            winner: battle.winner,
            overwhelming: battle.overwhelming,
            vp: [battle.result.attacker.vp, battle.result.defender.vp],
            resolvedBy: battle.resolvedBy ?? "players",
          }
        : null,
  };
}

/** K3 ruling: the sheet lists the battle turn by turn up to the scenario's x (the campaign's x when it has none). */
function turnsShown(kit: BattleKitOptions | undefined, state: BattleKitState | undefined): number {
  const x = kit?.turnLimit ?? DEFAULT_TURN_LIMIT;
  return Math.max(x, (state?.gravityFlux.length ?? 0) + 1);
}

function sheetScenario(
  kit: BattleKitOptions,
  state: BattleKitState,
  battle: { attacker: { player: string; army: string }; defender: { player: string; army: string } },
): SheetScenario | { pending: string } {
  const scenario = state.scenario;
  if (scenario.name === null) {
    const pending = scenario.declined
      ? `${battle.defender.player} declined the proposal: the host rolls the scenario`
      : scenario.proposal
        ? `${scenario.proposal.player} proposes ${scenarioText(scenario.proposal.scenario, 0).name}: ${battle.defender.player} to accept or decline`
        : kit.scenario === "rolled"
          ? "to be rolled by the host"
          : kit.scenario === "attackerProposes"
            ? `${battle.attacker.player} (attacker) to propose, ${battle.defender.player} to accept`
            : `${kit.scenario === "attackerChooses" ? battle.attacker.player : battle.defender.player} to choose`;
    return { pending };
  }
  const x = kit.turnLimit ?? DEFAULT_TURN_LIMIT;
  const text = scenarioText(scenario.name, x);
  const target = scenario.target;
  return {
    key: scenario.name,
    name: text.name,
    setUp: text.setUp,
    victory: text.victory,
    turnLimit: text.turnLimit ? x : null,
    objectives: text.objectives,
    settled:
      scenario.settled === "rolled"
        ? "rolled"
        : scenario.settled === "agreed"
          ? `proposed by ${scenario.by}, accepted by ${battle.defender.player}`
          : `chosen by ${scenario.by}`,
    target:
      target === null
        ? null
        : target === "defenderCommander"
          ? `the commander of ${battle.defender.army} (its owner knows which unit it is)`
          : `${target.unitType} of ${target.army}`,
  };
}

const d6 = (die: number) => `d6 ${die}`;

function bandRow(
  condition: SheetCondition["condition"],
  die: number,
  band: ConditionBand,
  turns: number,
): SheetCondition {
  return { condition, roll: d6(die), name: band.name, effect: band.effect, byTurn: turnByTurn(band.levelAt, turns) };
}

function sheetConditions(
  kit: BattleKitOptions,
  state: BattleKitState,
  turns: number,
): { rows: SheetCondition[]; pending: boolean } | null {
  const rolled: BattleConditions = state.conditions ?? {};
  const rows: SheetCondition[] = [];
  if (rolled.light) rows.push(bandRow("Light", rolled.light.die, LIGHT_TABLE[rolled.light.band], turns));
  if (rolled.rain) {
    const row = bandRow("Rain", rolled.rain.die, RAIN_TABLE[rolled.rain.band], turns);
    const mud = mudFrom(RAIN_TABLE[rolled.rain.band].levelAt, turns);
    rows.push(mud === null ? row : { ...row, note: `open terrain and ruins count as mud from turn ${mud}` });
  }
  if (rolled.blizzard) {
    const row = bandRow("Blizzard", rolled.blizzard.die, BLIZZARD_TABLE[rolled.blizzard.band], turns);
    const edge = rolled.blizzard.edge;
    // Each battle turn in blizzard starts with a d6 for a white-out (on a 1).
    const whiteOuts = state.whiteOuts.map((w) => `turn ${w.battleTurn} d6 ${w.die}${w.whiteOut ? " WHITE-OUT" : ""}`);
    const roll = [row.roll, ...(edge ? [`edge d4: ${EDGE_NAMES[edge]}`] : [])].join(", ");
    rows.push({ ...row, roll: whiteOuts.length ? `${roll}; white-out rolls: ${whiteOuts.join(", ")}` : roll });
  }
  if (rolled.atmosphere)
    rows.push(bandRow("Atmosphere", rolled.atmosphere.die, ATMOSPHERE_TABLE[rolled.atmosphere.band], turns));
  else if (kit.atmosphere && kit.atmosphere !== "rolled") {
    const level = WORLD_ATMOSPHERE_NAMES[kit.atmosphere];
    rows.push({
      condition: "Atmosphere",
      roll: null,
      name: level,
      effect: "the campaign world's atmosphere",
      byTurn: `Turns 1+: ${level}`,
    });
  }
  const gravity = gravityRow(kit, state, rolled, turns);
  if (gravity) rows.push(gravity);
  const pending = rollsConditions(kit) && state.conditions === null;
  return rows.length > 0 || pending ? { rows, pending } : null;
}

/** K3 ruling: after two consecutive turns of heavy rain, open terrain and ruins are mud from the next turn on. */
function mudFrom(levelAt: (battleTurn: number) => string, turns: number): number | null {
  for (let turn = 2; turn < turns; turn++)
    if (levelAt(turn - 1) === "Heavy Rain" && levelAt(turn) === "Heavy Rain") return turn + 1;
  return null;
}

function gravityRow(
  kit: BattleKitOptions,
  state: BattleKitState,
  rolled: BattleConditions,
  turns: number,
): SheetCondition | null {
  const gravity = rolled.gravity;
  if (!gravity) {
    if (!kit.gravity || kit.gravity === "rolled" || kit.gravity === "flux") return null;
    const level = GRAVITY_NAMES[kit.gravity];
    return {
      condition: "Gravity",
      roll: null,
      name: level,
      effect: "the campaign world's gravity",
      byTurn: `Turns 1+: ${level}`,
    };
  }
  if (!gravity.flux) {
    const roll = gravity.dice.map(d6).join(", ");
    const level = GRAVITY_NAMES[gravity.level];
    return {
      condition: "Gravity",
      roll,
      name: level,
      effect: `${level} for the entire battle`,
      byTurn: `Turns 1+: ${level}`,
    };
  }
  // Flux: the table's 6 (when rolled), the starting level's dice, then each End phase's roll as it comes.
  const starting = kit.gravity === "flux" ? gravity.dice : gravity.dice.slice(1);
  const roll = [
    ...(kit.gravity === "flux" ? [] : [d6(gravity.dice[0]!)]),
    `starting level ${starting.map(d6).join(", ")}`,
    ...state.gravityFlux.map(
      (f) => `after turn ${f.battleTurn}: ${GRAVITY_NAMES[f.level]}${f.changed ? " (changed)" : ""}`,
    ),
  ].join("; ");
  const known = [gravity.level, ...state.gravityFlux.map((f) => f.level)].map((level) => GRAVITY_NAMES[level]);
  const levelAt = (turn: number) => known[turn - 1] ?? "rolled at the previous End phase";
  return {
    condition: "Gravity",
    roll,
    name: "Gravity Flux!",
    effect:
      "Rolled again at the start of each End phase: if the level changes, every formation on the battlefield takes a Blast marker; a further Gravity Flux! keeps the level.",
    byTurn: turnByTurn(levelAt, Math.min(turns, known.length + 1)),
  };
}

function sheetVolley(volley: BattleKitState["volleys"][string]): SheetVolley {
  const counts = new Map<string, number>();
  for (const hit of volley.hits) counts.set(hit, (counts.get(hit) ?? 0) + 1);
  const allocation = volley.allocation ?? [];
  const hit = new Set(allocation.map((a) => a.unit));
  const units = [...volley.units]
    .filter((unit) => hit.has(unit.id))
    .sort((a, b) => a.distanceCm - b.distanceCm)
    .map((unit) => ({
      unit: unit.id,
      kind: unit.kind,
      distanceCm: unit.distanceCm,
      hits: allocation.filter((a) => a.unit === unit.id).map((a) => a.kind),
      saves:
        volley.saves === null
          ? null
          : volley.saves
              .filter((s) => s.unit === unit.id)
              .map((s) =>
                s.damage !== undefined
                  ? `TK damage ${s.damage}`
                  : `${s.roll} against ${unit.save}+: ${s.saved ? "saved" : "failed"}`,
              )
              .join(", "),
    }));
  return {
    id: volley.id,
    player: volley.player,
    hits: [...counts].map(([kind, count]) => `${count} ${kind}`).join(", "),
    units,
    unallocated: volley.unallocated.length,
    destroyed: volley.destroyed,
  };
}
