import type { BattleKitOptions, Terrain } from "../events/common.js";
import {
  ATMOSPHERE_BANDS,
  BLIZZARD_BANDS,
  LIGHT_BANDS,
  RAIN_BANDS,
  SCENARIOS,
  TABLE_EDGES,
  type BattleConditions,
  type GravityLevel,
  type Scenario,
} from "../events/kit-common.js";

/**
 * The battle kit's tables as data (K1, K2, K3, K5), in the seeds' own words, and how dice read on them. Shared by the
 * rules that check a roll, the clients that draw it, the audit that recomputes it and the sheet that shows it.
 */

/** Draws the next die of `sides` sides. */
export type TakeDie = (sides: number) => number;

/** K2 ruling: when the turn limit x is not set by the campaign. */
export const DEFAULT_TURN_LIMIT = 6;

/** K1: what each terrain asks of the table (seed 000's colour codes), and what a road on the square asks. */
export const TERRAIN_GUIDE: Record<Terrain, string> = {
  plains: "Plains (white): use a variety of terrain for set up.",
  forest: "Forest (green): while other terrain can be used, woods should feature predominately for set up.",
  hills: "Hills (yellow): while other terrain can be used, hills should feature predominately for set up.",
  mountains:
    "Mountains (brown): field any mountainous terrain in your collection; if you have none, set up as for hills.",
  river: "River (blue): as for plains, but a river must run through the battlefield somewhere.",
  town: "Town (grey): standard set up with an emphasis on having a number of buildings on the battlefield.",
  city: "City (purple): load up your battlefield with every building you have!",
};
export const ROAD_GUIDE = "Road: place roads on the battlefield, as the square has one.";
/** Seed 000 suggests roads on town and city battlefields too, road or not. */
export const BUILT_UP_ROAD_GUIDE = "Roads: you may place roads on the battlefield, as for any town or city square.";

export interface ScenarioText {
  name: string;
  setUp: string;
  victory: string;
  /** Whether it is played for x turns; Recover has no turn limit. */
  turnLimit: boolean;
  objectives: "used" | "none" | "either";
}

/** K2: the seven scenarios of seed 001, with set-up and victory conditions; `x` is the campaign's turn limit. */
export function scenarioText(scenario: Scenario, x: number): ScenarioText {
  switch (scenario) {
    case "meetingEngagement":
      return {
        name: "Meeting Engagement",
        setUp: "Start up like normal; both sides move forward toward the objective(s).",
        victory: `Play until one objective has been held for ${x} turns, or play for ${x} turns total.`,
        turnLimit: true,
        objectives: "used",
      };
    case "attackDefense":
      return {
        name: "Attack/Defense",
        setUp: "The defense sets up first on its half of the board; the attacker then sets up normally.",
        victory: `Play until one objective has been held for ${x} turns, or play for ${x} turns total.`,
        turnLimit: true,
        objectives: "used",
      };
    case "annihilation":
      return {
        name: "Annihilation",
        setUp: "Set up normally. Don't use objectives.",
        victory: `A battle to eliminate as much of the opponent's army as possible. Play for ${x} turns.`,
        turnLimit: true,
        objectives: "none",
      };
    case "breakout":
      return {
        name: "Breakout",
        setUp: "Set up normally. Don't use objectives.",
        victory: `The breakout player (the attacker) gets as much of its army across its opponent's baseline as possible; points are rewarded for each unit that makes it across. Over half the value of that army: the breakout player wins. Play for ${x} turns total.`,
        turnLimit: true,
        objectives: "none",
      };
    case "recover":
      return {
        name: "Recover",
        setUp:
          "Set up normally, with an item in the centre of the board: invulnerable, carried only by non-flying vehicles; a vehicle spends its entire turn to pick it up. Don't use objectives.",
        victory: "The winner is the side that gets the item across its own baseline. No turn limit.",
        turnLimit: false,
        objectives: "none",
      };
    case "assassination":
      return {
        name: "Assassination",
        setUp:
          "Set up normally. The targeted leader cannot leave the battlefield; normal targeting rules still apply. Use no objectives.",
        victory: `Play for ${x} turns. Victory is based purely on whether the designated leader is alive at the end of the game.`,
        turnLimit: true,
        objectives: "none",
      };
    case "pincer":
      return {
        name: "Pincer",
        setUp:
          "The attacker sets up on both ends of the table, 15 cm deep; the defender sets up in the middle, at least 20 cm from the attacker's set-up zones.",
        victory: `Play with objectives, as a battle to desperately hold one, or without, as a battle of annihilation: until one objective has been held for ${x} turns, or for ${x} turns total.`,
        turnLimit: true,
        objectives: "either",
      };
  }
}

/** K2 ruling: a scenario is rolled on one die of seven sides, the scenarios in seed 001's order. */
export function scenarioFromDice(take: TakeDie): Scenario {
  return SCENARIOS[take(SCENARIOS.length) - 1]!;
}

/** A d6 table: each band's first face, in order. */
type Bands<B extends string> = ReadonlyArray<readonly [first: number, band: B]>;
const band = <B extends string>(bands: Bands<B>, die: number): B => bands.filter(([first]) => first <= die).pop()![1];

const LIGHT: Bands<(typeof LIGHT_BANDS)[number]> = [
  [1, "darkestBeforeDawn"],
  [2, "twilightOfTheGods"],
  [4, "gatheringDarkness"],
  [5, "hopeFades"],
  [6, "darkestNight"],
];
const RAIN: Bands<(typeof RAIN_BANDS)[number]> = [
  [1, "clearingUp"],
  [2, "aintSoBad"],
  [4, "stormsComin"],
  [5, "gettingWorse"],
  [6, "hardRain"],
];
const BLIZZARD: Bands<(typeof BLIZZARD_BANDS)[number]> = [
  [1, "inForSomeChop"],
  [2, "noTimeForThis"],
  [5, "breakingUp"],
  [6, "noEndInSight"],
];
const ATMOSPHERE: Bands<(typeof ATMOSPHERE_BANDS)[number]> = [
  [1, "cantBreathe"],
  [2, "hullBreach"],
  [3, "remindsMeOfHome"],
  [5, "dontLookNow"],
  [6, "welcomeToHell"],
];
/** The gravity table: 1 low, 2-4 normal, 5 high, 6 Gravity Flux!. */
export function gravityFace(die: number): GravityLevel | "flux" {
  return die === 1 ? "low" : die <= 4 ? "normal" : die === 5 ? "high" : "flux";
}

/** Seed 002: the starting gravity under flux is rolled again, rerolling "Gravity Flux!". */
function startingGravity(take: TakeDie, dice: number[]): GravityLevel {
  for (;;) {
    const die = take(6);
    dice.push(die);
    const level = gravityFace(die);
    if (level !== "flux") return level;
  }
}

/**
 * K3: a battle's conditions, reading the dice in this order: light, rain, blizzard (a d4 for the edge on a 1),
 * atmosphere, gravity, each only when the campaign rolls it. A world always in flux rolls only its starting level.
 */
export function conditionsFromDice(kit: BattleKitOptions, take: TakeDie): BattleConditions {
  const conditions: BattleConditions = {};
  if (kit.light) {
    const die = take(6);
    conditions.light = { die, band: band(LIGHT, die) };
  }
  if (kit.rain) {
    const die = take(6);
    conditions.rain = { die, band: band(RAIN, die) };
  }
  if (kit.blizzard) {
    const die = take(6);
    const level = band(BLIZZARD, die);
    conditions.blizzard =
      level === "inForSomeChop"
        ? { die, band: level, edge: TABLE_EDGES[take(TABLE_EDGES.length) - 1]! }
        : { die, band: level };
  }
  if (kit.atmosphere === "rolled") {
    const die = take(6);
    conditions.atmosphere = { die, band: band(ATMOSPHERE, die) };
  }
  if (kit.gravity === "rolled" || kit.gravity === "flux") {
    const dice: number[] = [];
    const first = kit.gravity === "rolled" ? take(6) : 6;
    if (kit.gravity === "rolled") dice.push(first);
    const level = gravityFace(first);
    conditions.gravity =
      level === "flux" ? { dice, level: startingGravity(take, dice), flux: true } : { dice, level, flux: false };
  }
  return conditions;
}

/** Whether the campaign rolls any condition per battle (K3). */
export function rollsConditions(kit: BattleKitOptions | undefined): boolean {
  return (
    !!kit &&
    !!(
      kit.light ||
      kit.rain ||
      kit.blizzard ||
      kit.atmosphere === "rolled" ||
      kit.gravity === "rolled" ||
      kit.gravity === "flux"
    )
  );
}

/** K3: whether a blizzard band puts (part of) the battlefield in blizzard in a battle turn. */
export function inBlizzard(band: (typeof BLIZZARD_BANDS)[number], battleTurn: number): boolean {
  const level = BLIZZARD_TABLE[band].levelAt(battleTurn);
  return level === "Blizzard" || level === "Half the table in blizzard";
}

/** K3: a blizzard's white-out roll at the start of a battle turn: a d6, a 1 is a white-out. */
export function whiteOutFromDice(take: TakeDie): boolean {
  return take(6) === 1;
}

/** K3: Gravity Flux at a battle turn's End phase: a new level, or "Gravity Flux!" keeping the current one. */
export function gravityFluxFromDice(current: GravityLevel, take: TakeDie): { die: number; level: GravityLevel } {
  const die = take(6);
  const face = gravityFace(die);
  return { die, level: face === "flux" ? current : face };
}

/** K5: seed 004's barrage point table (Heresy): the d10 score that hits, by total barrage points. */
export function barrageToHit(points: number): number {
  return points <= 3 ? 9 : points <= 6 ? 7 : points <= 9 ? 5 : 3;
}

/** K5 (Heresy): one d10 per model under the template; a score of `toHit` or more hits. */
export function barrageHitsFromDice(models: number, toHit: number, take: TakeDie): number {
  let hits = 0;
  for (let i = 0; i < models; i++) if (take(10) >= toHit) hits++;
  return hits;
}

/** K3: one band of a conditions table: its name, the seed's effect, and the level it gives each battle turn. */
export interface ConditionBand {
  name: string;
  effect: string;
  levelAt: (battleTurn: number) => string;
}

const upTo = (steps: ReadonlyArray<readonly [last: number, level: string]>, rest: string) => (turn: number) =>
  steps.find(([last]) => turn <= last)?.[1] ?? rest;

export const LIGHT_TABLE: Record<(typeof LIGHT_BANDS)[number], ConditionBand> = {
  darkestBeforeDawn: {
    name: "Darkest before the dawn",
    effect: "Turn 1: Darkness, Turn 2: Twilight, Turns 3+: Normal Light",
    levelAt: upTo(
      [
        [1, "Darkness"],
        [2, "Twilight"],
      ],
      "Normal Light",
    ),
  },
  twilightOfTheGods: {
    name: "Twilight of the gods",
    effect: "Twilight for the entire battle.",
    levelAt: () => "Twilight",
  },
  gatheringDarkness: {
    name: "Gathering darkness",
    effect: "Turn 1: Normal Light, Turn 2: Twilight, Turn 3+: Darkness",
    levelAt: upTo(
      [
        [1, "Normal Light"],
        [2, "Twilight"],
      ],
      "Darkness",
    ),
  },
  hopeFades: {
    name: "Hope fades",
    effect: "Turn 1: Twilight, Turn 2+: Darkness",
    levelAt: upTo([[1, "Twilight"]], "Darkness"),
  },
  darkestNight: {
    name: "In darkest night...",
    effect: "Darkness for the entire battle.",
    levelAt: () => "Darkness",
  },
};

export const RAIN_TABLE: Record<(typeof RAIN_BANDS)[number], ConditionBand> = {
  clearingUp: {
    name: '"I think it\'s clearing up!"',
    effect: "Turn 1: Heavy Rain, Turns 2-3: Light Rain, Turns 4+: No Rain",
    levelAt: upTo(
      [
        [1, "Heavy Rain"],
        [3, "Light Rain"],
      ],
      "No Rain",
    ),
  },
  aintSoBad: {
    name: '"This ain\'t so bad..."',
    effect: "Light Rain falls for the entire battle.",
    levelAt: () => "Light Rain",
  },
  stormsComin: {
    name: "\"Storm's comin'!\"",
    effect: "Turn 1: No Rain, Turn 2: Light Rain, Turn 3+: Heavy Rain.",
    levelAt: upTo(
      [
        [1, "No Rain"],
        [2, "Light Rain"],
      ],
      "Heavy Rain",
    ),
  },
  gettingWorse: {
    name: '"It\'s getting worse!"',
    effect: "Turn 1: Light Rain, Turn 2+: Heavy Rain",
    levelAt: upTo([[1, "Light Rain"]], "Heavy Rain"),
  },
  hardRain: {
    name: "A hard rain fell.",
    effect: "Heavy Rain falls for the entire battle",
    levelAt: () => "Heavy Rain",
  },
};

export const BLIZZARD_TABLE: Record<(typeof BLIZZARD_BANDS)[number], ConditionBand> = {
  inForSomeChop: {
    name: '"We\'re in for some chop!"',
    effect:
      "Randomly determine which table edge the blizzard is approaching from. Turn 1: No blizzard, Turn 2: Half the table in blizzard, Turns 3+: blizzard",
    levelAt: upTo(
      [
        [1, "No blizzard"],
        [2, "Half the table in blizzard"],
      ],
      "Blizzard",
    ),
  },
  noTimeForThis: {
    name: '"We ain\'t got time for this!"',
    effect: "Turn 1-3: No blizzard, Turn 4+: blizzard",
    levelAt: upTo([[3, "No blizzard"]], "Blizzard"),
  },
  breakingUp: {
    name: '"She\'s breaking up"',
    effect: "Turn 1-2: Blizzard, Turn 3: Light rain, Turn 4+ no blizzard",
    levelAt: upTo(
      [
        [2, "Blizzard"],
        [3, "Light rain"],
      ],
      "No blizzard",
    ),
  },
  noEndInSight: {
    name: '"No end in sight!"',
    effect: "The blizzard lasts the entire battle",
    levelAt: () => "Blizzard",
  },
};

export const ATMOSPHERE_TABLE: Record<(typeof ATMOSPHERE_BANDS)[number], ConditionBand> = {
  cantBreathe: {
    name: '"I can\'t breathe!"',
    effect: "Extremely dangerous the entire battle",
    levelAt: () => "Extremely Dangerous",
  },
  hullBreach: {
    name: '"Hull breach!"',
    effect: "Turn 1: Normal, Turn 2: Dangerous, Turn 3+: Extremely Dangerous.",
    levelAt: upTo(
      [
        [1, "Normal"],
        [2, "Dangerous"],
      ],
      "Extremely Dangerous",
    ),
  },
  remindsMeOfHome: {
    name: '"Reminds me of home..."',
    effect: "Normal",
    levelAt: () => "Normal",
  },
  dontLookNow: {
    name: '"Don\'t look now..."',
    effect: "Turn 1-2: Dangerous, Turn 3+: Extremely Dangerous",
    levelAt: upTo([[2, "Dangerous"]], "Extremely Dangerous"),
  },
  welcomeToHell: {
    name: '"Welcome to hell..."',
    effect: "Turn 1: Dangerous, Turn 2: Extremely Dangerous, Turn 3: Dangerous, etc.",
    levelAt: (turn) => (turn % 2 === 1 ? "Dangerous" : "Extremely Dangerous"),
  },
};

export const GRAVITY_NAMES: Record<GravityLevel, string> = {
  low: "Low Gravity",
  normal: "Normal Gravity",
  high: "High Gravity",
};

export const WORLD_ATMOSPHERE_NAMES = {
  normal: "Normal",
  dangerous: "Dangerous",
  extremelyDangerous: "Extremely Dangerous",
} as const;

export const EDGE_NAMES = {
  attacker: "the attacker's table edge",
  defender: "the defender's table edge",
  attackerLeft: "the short edge on the attacker's left",
  attackerRight: "the short edge on the attacker's right",
} as const;

/** Battle turns as the sheet lists them: "Turn 1: Darkness, Turn 2: Twilight, Turns 3+: Normal Light". */
export function turnByTurn(levelAt: (battleTurn: number) => string, turns: number): string {
  const runs: Array<{ from: number; to: number; level: string }> = [];
  for (let turn = 1; turn <= turns; turn++) {
    const level = levelAt(turn);
    const last = runs[runs.length - 1];
    if (last && last.level === level) last.to = turn;
    else runs.push({ from: turn, to: turn, level });
  }
  // The last run goes on past the turns listed when the table keeps its level (not an alternation).
  const lasts = [1, 2].every((more) => levelAt(turns + more) === runs[runs.length - 1]!.level);
  return runs
    .map((run, i) => {
      if (i === runs.length - 1 && lasts) return `Turns ${run.from}+: ${run.level}`;
      return run.from === run.to ? `Turn ${run.from}: ${run.level}` : `Turns ${run.from}-${run.to}: ${run.level}`;
    })
    .join(", ");
}
