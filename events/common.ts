import { Type, type Static, type TSchema } from "@sinclair/typebox";

/**
 * Ids players and organisers type: short, readable, safe in keys and file names. The names an object inherits
 * (constructor, toString, ...) are not ids, so that no id can be mistaken for a property every record has.
 */
export const ID_PATTERN =
  "^(?!(?:constructor|toString|toLocaleString|valueOf|hasOwnProperty|isPrototypeOf|propertyIsEnumerable)$)[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$";
export const Id = Type.String({ pattern: ID_PATTERN });
export type Id = Static<typeof Id>;

/** A record keyed by ids: every key must be an id. */
export const IdRecord = <T extends TSchema>(value: T) => Type.Record(Id, value, { additionalProperties: false });

/** Who did it: a player id, or "host" for the organiser's machine. */
export const Actor = Type.String({ pattern: ID_PATTERN });
export type Actor = Static<typeof Actor>;
export const HOST = "host";
/**
 * D2: the name of the organiser's own key. The organiser acts as the host, but its commands (O1, O2, the T5 close)
 * are signed by a key made on its own device, apart from the host's key that signs the dice keeper's steps.
 */
export const ORGANISER = "organiser";

/** A map square as [x, y]: x counts columns from the west edge, y rows from the north edge, both from 0. */
export const Square = Type.Tuple([
  Type.Integer({ minimum: 0, maximum: 999 }),
  Type.Integer({ minimum: 0, maximum: 999 }),
]);
export type Square = Static<typeof Square>;

export const Edge = Type.Union([
  Type.Literal("north"),
  Type.Literal("south"),
  Type.Literal("east"),
  Type.Literal("west"),
]);
export type Edge = Static<typeof Edge>;

/** Terrain letters on the map rows (S1): plains, forest, hills, mountains, river, town, city. */
export const TERRAIN_LETTERS = {
  p: "plains",
  f: "forest",
  h: "hills",
  m: "mountains",
  r: "river",
  t: "town",
  c: "city",
} as const;
export type TerrainLetter = keyof typeof TERRAIN_LETTERS;
export type Terrain = (typeof TERRAIN_LETTERS)[TerrainLetter];

export const MapDefinition = Type.Object(
  {
    width: Type.Integer({ minimum: 2, maximum: 200 }),
    height: Type.Integer({ minimum: 2, maximum: 200 }),
    /** One string per row, north to south, one terrain letter per square (see TERRAIN_LETTERS). */
    terrain: Type.Array(Type.String({ pattern: "^[pfhmrtc]+$" }), { minItems: 2, maxItems: 200 }),
    /** Squares that carry a road. */
    roads: Type.Array(Square, { maxItems: 40000 }),
  },
  { additionalProperties: false },
);
export type MapDefinition = Static<typeof MapDefinition>;

export const Ability = Type.Union([
  Type.Literal("hq"),
  Type.Literal("scout"),
  Type.Literal("titan"),
  Type.Literal("infantry"),
  Type.Literal("transport"),
]);
export type Ability = Static<typeof Ability>;

export const UnitType = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    moveCm: Type.Integer({ minimum: 0, maximum: 200 }),
    abilities: Type.Array(Ability, { uniqueItems: true }),
    /** Infantry stands it can carry (A1). */
    transportCapacity: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type UnitType = Static<typeof UnitType>;

export const FormationKind = Type.Union([
  Type.Literal("company"),
  Type.Literal("support"),
  Type.Literal("special"),
  Type.Literal("titan"),
]);
export type FormationKind = Static<typeof FormationKind>;

/** Unit type id -> number of units. */
export const UnitCounts = IdRecord(Type.Integer({ minimum: 0, maximum: 1000 }));
export type UnitCounts = Static<typeof UnitCounts>;

export const Formation = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    kind: FormationKind,
    points: Type.Integer({ minimum: 1, maximum: 100000 }),
    /** Full-strength unit list. */
    units: UnitCounts,
    /**
     * K4: the army list it comes from (its race or faction). Where a campaign plays allies, an army's formations of
     * another list than its own are its allies. A formation with none belongs to every army's own list.
     */
    faction: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type Formation = Static<typeof Formation>;

/** The campaign's own formation catalogue (S8): data the players write. */
export const Catalogue = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    unitTypes: IdRecord(UnitType),
    formations: IdRecord(Formation),
  },
  { additionalProperties: false },
);
export type Catalogue = Static<typeof Catalogue>;

export const Player = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 80 }),
    baseLine: Edge,
  },
  { additionalProperties: false },
);
export type Player = Static<typeof Player>;

/** M and N of S2. */
export const Force = Type.Object(
  {
    maxArmyPoints: Type.Integer({ minimum: 1000, maximum: 1000000 }),
    armies: Type.Integer({ minimum: 1, maximum: 500 }),
  },
  { additionalProperties: false },
);
export type Force = Static<typeof Force>;

/** B3: one row of a battle-size table: battles whose average points are at most `upTo` are won at `vp` VPs. */
export const VpTableRow = Type.Object(
  { upTo: Type.Integer({ minimum: 1, maximum: 10000000 }), vp: Type.Integer({ minimum: 1, maximum: 100000 }) },
  { additionalProperties: false },
);
export type VpTableRow = Static<typeof VpTableRow>;

/** The advanced rules, each a campaign option chosen at set-up and off by default (A1-A8). */
export const AdvancedRules = Type.Object(
  {
    /** A1: +1 move rate while every unit moves 20 cm or more. */
    mobilised: Type.Optional(Type.Boolean()),
    /** A2: army points hidden from the opponent. */
    fogOfWar: Type.Optional(Type.Boolean()),
    /** A3: armies on Advance may scout. */
    scouting: Type.Optional(Type.Boolean()),
    /** A4: move rate as a point allowance paid by terrain. */
    terrainCosts: Type.Optional(Type.Boolean()),
    /** A5: arrivals at the home base; a lost home base stops deployment and spending. */
    homeBase: Type.Optional(Type.Boolean()),
    /** A6: commanders' ranks limit armies. */
    commanders: Type.Optional(Type.Boolean()),
    /** A7: off-table support bought and used in battles. */
    offTableSupport: Type.Optional(Type.Boolean()),
    /** A8: the war chest, its income and spending; titan damage carried between battles. */
    warChest: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AdvancedRules = Static<typeof AdvancedRules>;
export type AdvancedRule = keyof AdvancedRules;

/** E3 timing option: see `Options.fortifyBuilds`. */
export const FortifyBuilds = Type.Union([Type.Literal("fromActivation"), Type.Literal("atEndPhase")]);
export type FortifyBuilds = Static<typeof FortifyBuilds>;

/** K2: how each battle's scenario is settled. */
export const ScenarioChoice = Type.Union([
  Type.Literal("rolled"),
  Type.Literal("attackerProposes"),
  Type.Literal("attackerChooses"),
  Type.Literal("defenderChooses"),
]);
export type ScenarioChoice = Static<typeof ScenarioChoice>;

/** K3: a campaign world's atmosphere: rolled per battle on seed 002's table, or always the same. */
export const WorldAtmosphere = Type.Union([
  Type.Literal("rolled"),
  Type.Literal("normal"),
  Type.Literal("dangerous"),
  Type.Literal("extremelyDangerous"),
]);
export type WorldAtmosphere = Static<typeof WorldAtmosphere>;

/** K3: a campaign world's gravity: rolled per battle on seed 002's table, or always the same (flux rerolls). */
export const WorldGravity = Type.Union([
  Type.Literal("rolled"),
  Type.Literal("low"),
  Type.Literal("normal"),
  Type.Literal("high"),
  Type.Literal("flux"),
]);
export type WorldGravity = Static<typeof WorldGravity>;

/** The battle kit (K2, K3, K5): what every battle's sheet settles before the armies meet on the table. */
export const BattleKitOptions = Type.Object(
  {
    /** K2: how the scenario is settled; absent: no scenario is set by the campaign. */
    scenario: Type.Optional(ScenarioChoice),
    /** K2: x, the turn limit of the scenarios that play for x turns (default 6). */
    turnLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    /** K3: the light level rolled per battle. */
    light: Type.Optional(Type.Boolean()),
    /** K3: the rain level rolled per battle. */
    rain: Type.Optional(Type.Boolean()),
    /** K3: the blizzard level rolled per battle. */
    blizzard: Type.Optional(Type.Boolean()),
    /** K3: the campaign world's atmosphere; absent: normal. */
    atmosphere: Type.Optional(WorldAtmosphere),
    /** K3: the campaign world's gravity; absent: normal. */
    gravity: Type.Optional(WorldGravity),
    /** K3: whether a battle on a city square is enclosed: never (default), always, or when both players agree. */
    enclosedCities: Type.Optional(Type.Union([Type.Literal("never"), Type.Literal("always"), Type.Literal("agreed")])),
    /** K5: the battle system the assistant follows: NetEpic's d6 (default) or Heresy's d10 (barrage table). */
    profile: Type.Optional(Type.Union([Type.Literal("netepic"), Type.Literal("heresy")])),
  },
  { additionalProperties: false },
);
export type BattleKitOptions = Static<typeof BattleKitOptions>;

/** B4 with `options.battles: "model"`: the battle model reads d10s, three to each of its draws. */
export const MODEL_DIE_SIDES = 10;
/** The faces of the d10s a modelled battle read (D1). */
export const ModelDice = Type.Array(Type.Integer({ minimum: 1, maximum: MODEL_DIE_SIDES }), {
  minItems: 1,
  maxItems: 5000,
});

export const Options = Type.Object(
  {
    /** The advanced rules in play (A1-A8); none unless named here. */
    advanced: Type.Optional(AdvancedRules),
    /** S2 option: every army exactly this many points. */
    armySize: Type.Optional(Type.Integer({ minimum: 1000, maximum: 1000000 })),
    /** B3: the campaign's own battle-size table, rows in increasing `upTo`; larger battles use the last row. */
    vpTable: Type.Optional(Type.Array(VpTableRow, { minItems: 1, maxItems: 100 })),
    /**
     * E3 timing: when a Fortify order's 450 points of defences stand on its square. `fromActivation` (the ruling, the
     * default): from the army's activation, made known with its order's reveal, so an army attacked that turn fights
     * with them. `atEndPhase`: only when the turn ends, and only if the army still stands there.
     */
    fortifyBuilds: Type.Optional(FortifyBuilds),
    /** S2 option, K4: armies may take allies, at most 25% of their points and from one other army list only. */
    allies: Type.Optional(Type.Boolean()),
    /** K2, K3, K5: the battle kit; absent: each battle's sheet shows the terrain guide (K1) only. */
    battleKit: Type.Optional(BattleKitOptions),
    /**
     * B4: how battles are resolved: fought on the table, a player reporting and the other confirming (`table`, the
     * default), or by the forecast's battle model from the turn's dice (D1), the host's step (`model`).
     */
    battles: Type.Optional(Type.Union([Type.Literal("table"), Type.Literal("model")])),
  },
  { additionalProperties: false },
);
export type Options = Static<typeof Options>;

/** One formation of an army's roster, with its surviving units. */
export const RosterFormation = Type.Object(
  {
    id: Id,
    formation: Id,
    units: UnitCounts,
    /** E5: the company of the army a support or special formation is attached to (absent: no company to attach to). */
    attachedTo: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type RosterFormation = Static<typeof RosterFormation>;

/**
 * A catalogue formation as a command or a set-up file names it for an army: its id in the army and, for a support or
 * special formation, the company it is attached to (E5; by default the army's first company).
 */
export const FormationEntry = Type.Object(
  { id: Id, formation: Id, attachedTo: Type.Optional(Id) },
  { additionalProperties: false },
);
export type FormationEntry = Static<typeof FormationEntry>;

/**
 * E5: support and special formations whose company left the army (broken down or replaced), each with the company it
 * is attached to from then on. One that is not listed is attached to no company any more.
 */
export const Reattached = IdRecord(Id);
export type Reattached = Static<typeof Reattached>;

/** The army's commander (S8): one unit of one of its formations. */
export const Commander = Type.Object(
  {
    formation: Id,
    unitType: Id,
  },
  { additionalProperties: false },
);
export type Commander = Static<typeof Commander>;

/** The four orders of T4. */
export const Order = Type.Union([
  Type.Literal("firstFire"),
  Type.Literal("advance"),
  Type.Literal("charge"),
  Type.Literal("fortify"),
]);
export type Order = Static<typeof Order>;

/** A SHA-256 digest in lower-case hex. */
export const SHA256_PATTERN = "^[0-9a-f]{64}$";
export const Sha256 = Type.String({ pattern: SHA256_PATTERN });

/** Random bytes in hex, at least 128 bits: salts and dice seeds. */
export const NONCE_PATTERN = "^[0-9a-f]{32,128}$";
export const Nonce = Type.String({ pattern: NONCE_PATTERN });

/** Formation id within an army -> unit type -> number of units. */
export const FormationUnits = IdRecord(UnitCounts);
export type FormationUnits = Static<typeof FormationUnits>;

export const BattleOutcome = Type.Union([Type.Literal("attacker"), Type.Literal("defender"), Type.Literal("draw")]);
export type BattleOutcome = Static<typeof BattleOutcome>;

/** A8: one titan weapon destroyed in battle, with its points cost from the weapons chart. */
export const DestroyedWeapon = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 80 }), points: Type.Integer({ minimum: 0, maximum: 100000 }) },
  { additionalProperties: false },
);
export type DestroyedWeapon = Static<typeof DestroyedWeapon>;

/** A8: damage a titan took in battle that is not rectified for free: shields/fields down and weapons destroyed. */
export const TitanDamage = Type.Object(
  {
    shields: Type.Integer({ minimum: 0, maximum: 100 }),
    weapons: Type.Array(DestroyedWeapon, { maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type TitanDamage = Static<typeof TitanDamage>;

/** A7: the kinds of off-table support on the price list: barrages and missiles (a mine dispenser with its load). */
export const SupportKind = Type.Union([
  Type.Literal("light-barrage"),
  Type.Literal("medium-barrage"),
  Type.Literal("heavy-barrage"),
  Type.Literal("shock-and-awe"),
  Type.Literal("blind"),
  Type.Literal("haywire"),
  Type.Literal("mine-dispenser"),
  Type.Literal("mine-dispenser-stasis"),
  Type.Literal("mine-dispenser-vortex"),
  Type.Literal("stasis"),
  Type.Literal("vortex"),
]);
export type SupportKind = Static<typeof SupportKind>;

/** A7: one item of a side's artillery roster called in during a battle, with the battle turns it was called in. */
export const SupportUse = Type.Object(
  {
    item: Id,
    turns: Type.Array(Type.Integer({ minimum: 1, maximum: 99 }), { minItems: 1, maxItems: 99 }),
  },
  { additionalProperties: false },
);
export type SupportUse = Static<typeof SupportUse>;

/** Per-side figures of a battle result (B4). */
export const SideResult = Type.Object(
  {
    /** VPs this side won for breaking enemy units. */
    vp: Type.Integer({ minimum: 0, maximum: 100000 }),
    /** Units this side lost, by its formation ids. */
    losses: FormationUnits,
    /** Units of this side that routed: they survive (B4). */
    routed: FormationUnits,
    /** A8: damage this side's titans took, by titan formation id; carried between battles only while A8 is on. */
    titanDamage: Type.Optional(IdRecord(TitanDamage)),
    /** A7: off-table support this side called in, from its artillery roster. */
    support: Type.Optional(Type.Array(SupportUse, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type SideResult = Static<typeof SideResult>;

export const BattleResult = Type.Object(
  { outcome: BattleOutcome, attacker: SideResult, defender: SideResult },
  { additionalProperties: false },
);
export type BattleResult = Static<typeof BattleResult>;

/** The fields of an event that fields a new army in the End phase (E6a ArmyRaised, A8 ArmyPurchased). */
export const newArmyFields = {
  turn: Type.Integer({ minimum: 1 }),
  army: Id,
  player: Id,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  formations: Type.Array(RosterFormation, { minItems: 1, maxItems: 200 }),
  commander: Commander,
  at: Square,
};

/** What the players agree before turn 1 (S1, S2, S8): shared by the CampaignCreated event, its command and set-up files. */
export const campaignTerms = {
  campaign: Id,
  name: Type.String({ minLength: 1, maxLength: 120 }),
  map: MapDefinition,
  players: Type.Array(Player, { minItems: 2, maxItems: 2 }),
  force: Force,
};

/**
 * A3: an order made public by a scouting before its army's activation is revealed with that activation (the engine
 * logs its OrderRevealed then). Version 1 of the scouting events had its owner reveal it separately, at its battle or
 * by the Action phase's end: they are read with `separateReveal`, so such an order is revealed, and audited, as it was.
 */
export const scoutingRevealVersions = {
  field: { separateReveal: Type.Optional(Type.Literal(true)) },
  upcaster: (data: unknown) => ({ ...(data as object), separateReveal: true }),
};
