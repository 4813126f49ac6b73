import { Type, type Static } from "@sinclair/typebox";
import { Id } from "./common.js";

/**
 * The battle kit's shared shapes (K2, K3, K5, D1). Every kit roll draws the turn's next dice from `firstDie` on, each
 * die with its own number of sides (a d6 for the tables, a d4 for the blizzard's edge, a d7 for the scenario, a d10
 * for Heresy's barrages), so that anyone can recompute a roll from the seeds without knowing what it was for.
 */
export const KitDie = Type.Object(
  { sides: Type.Integer({ minimum: 2, maximum: 20 }), face: Type.Integer({ minimum: 1, maximum: 20 }) },
  { additionalProperties: false },
);
export type KitDie = Static<typeof KitDie>;

export const kitRollFields = {
  turn: Type.Integer({ minimum: 1 }),
  battle: Id,
  firstDie: Type.Integer({ minimum: 0 }),
  dice: Type.Array(KitDie, { minItems: 1, maxItems: 500 }),
};

/** K2: the seven scenarios of seed 001, in its order. */
export const SCENARIOS = [
  "meetingEngagement",
  "attackDefense",
  "annihilation",
  "breakout",
  "recover",
  "assassination",
  "pincer",
] as const;
export const Scenario = Type.Union(SCENARIOS.map((name) => Type.Literal(name)));
export type Scenario = Static<typeof Scenario>;

/** K2: the leader an Assassination targets: a unit type of one of the battle's two armies. */
export const AssassinationTarget = Type.Object({ army: Id, unitType: Id }, { additionalProperties: false });
export type AssassinationTarget = Static<typeof AssassinationTarget>;

/** K2: a scenario a player sets for a battle, proposed or chosen. */
export const scenarioSettingFields = {
  turn: Type.Integer({ minimum: 1 }),
  battle: Id,
  player: Id,
  scenario: Scenario,
  target: Type.Optional(AssassinationTarget),
};

/** K3: one table's roll: the d6 and the band of the table it falls in (seed 002's names, as keys). */
export const TableRoll = <B extends string>(bands: readonly B[]) =>
  Type.Object(
    { die: Type.Integer({ minimum: 1, maximum: 6 }), band: Type.Union(bands.map((band) => Type.Literal(band))) },
    { additionalProperties: false },
  );

export const LIGHT_BANDS = [
  "darkestBeforeDawn",
  "twilightOfTheGods",
  "gatheringDarkness",
  "hopeFades",
  "darkestNight",
] as const;
export const RAIN_BANDS = ["clearingUp", "aintSoBad", "stormsComin", "gettingWorse", "hardRain"] as const;
export const BLIZZARD_BANDS = ["inForSomeChop", "noTimeForThis", "breakingUp", "noEndInSight"] as const;
export const ATMOSPHERE_BANDS = [
  "cantBreathe",
  "hullBreach",
  "remindsMeOfHome",
  "dontLookNow",
  "welcomeToHell",
] as const;
export const GRAVITY_LEVELS = ["low", "normal", "high"] as const;
export const GravityLevel = Type.Union(GRAVITY_LEVELS.map((level) => Type.Literal(level)));
export type GravityLevel = Static<typeof GravityLevel>;

/** K3 ruling: the table edge a blizzard comes from, seen from the attacker's side of the table. */
export const TABLE_EDGES = ["attacker", "defender", "attackerLeft", "attackerRight"] as const;
export const TableEdge = Type.Union(TABLE_EDGES.map((edge) => Type.Literal(edge)));
export type TableEdge = Static<typeof TableEdge>;

/** K3: what a battle's conditions roll settled; a table the campaign does not roll is absent. */
export const BattleConditions = Type.Object(
  {
    light: Type.Optional(TableRoll(LIGHT_BANDS)),
    rain: Type.Optional(TableRoll(RAIN_BANDS)),
    blizzard: Type.Optional(
      Type.Object(
        {
          die: Type.Integer({ minimum: 1, maximum: 6 }),
          band: Type.Union(BLIZZARD_BANDS.map((band) => Type.Literal(band))),
          /** "We're in for some chop!": the table edge it approaches from (a d4). */
          edge: Type.Optional(TableEdge),
        },
        { additionalProperties: false },
      ),
    ),
    atmosphere: Type.Optional(TableRoll(ATMOSPHERE_BANDS)),
    /** Gravity: the d6s rolled (a 6, Gravity Flux!, rerolled for the starting level), the level, and whether it is in flux. */
    gravity: Type.Optional(
      Type.Object(
        {
          dice: Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { minItems: 1, maxItems: 200 }),
          level: GravityLevel,
          flux: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BattleConditions = Static<typeof BattleConditions>;

/** K5: the kinds of hits of seed 003. */
export const HitKind = Type.Union([Type.Literal("AP"), Type.Literal("AT"), Type.Literal("MW"), Type.Literal("TK")]);
export type HitKind = Static<typeof HitKind>;

/** K5: what a unit is for hit allocation. */
export const TargetKind = Type.Union([
  Type.Literal("infantry"),
  Type.Literal("lightVehicle"),
  Type.Literal("armouredVehicle"),
  Type.Literal("warEngine"),
]);
export type TargetKind = Static<typeof TargetKind>;

/** K5: one unit of the formation under fire, as the players measure it at the table. */
export const TargetUnit = Type.Object(
  {
    id: Id,
    kind: TargetKind,
    /** Distance from the nearest firer, in cm. */
    distanceCm: Type.Number({ minimum: 0, maximum: 10000 }),
    /** Armour (or cover) save: the unit is saved on a d6 of at least this; 7 for none. */
    save: Type.Integer({ minimum: 2, maximum: 7 }),
    /** Whether it is in range and line of fire of the attack (an eligible target, seed 003). */
    eligible: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type TargetUnit = Static<typeof TargetUnit>;

/** K5: one hit as allocated: its kind, its place in the order of hits, and for a TK hit the damage rolled. */
export const AllocatedHit = Type.Object(
  {
    hit: Type.Integer({ minimum: 0 }),
    kind: HitKind,
    unit: Id,
  },
  { additionalProperties: false },
);
export type AllocatedHit = Static<typeof AllocatedHit>;
