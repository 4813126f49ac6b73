import { Type, type Static, type TObject } from "@sinclair/typebox";
import { Ajv, type ValidateFunction } from "ajv";
import {
  Actor,
  BattleResult,
  campaignTerms,
  Catalogue,
  Commander,
  FormationEntry,
  Id,
  IdRecord,
  ModelDice,
  Nonce,
  Options,
  Order,
  ORGANISER,
  Sha256,
  Square,
  SupportKind,
} from "../../events/common.js";
import { describeAjvError } from "../../events/index.js";
import { PauseReason } from "../../events/CampaignPaused.js";
import { DateTime } from "../../events/ActionDeadlineSet.js";
import { PublicKey } from "../../events/SeatKeyRegistered.js";
import { AssassinationTarget, HitKind, Scenario, TargetUnit } from "../../events/kit-common.js";

/**
 * D2: a party's signature of a command, given with it: the point it was decided on (the line's seq, and the head of
 * the signer's view chain or null) and the Ed25519 signature (hex) over src/crypto/signatures.ts's signedText of that
 * point and the command without this member.
 */
export const CommandSignature = Type.Object(
  {
    seq: Type.Integer({ minimum: 0 }),
    view: Type.Union([Sha256, Type.Null()]),
    value: Type.String({ pattern: "^[0-9a-f]{128}$" }),
  },
  { additionalProperties: false },
);
export type CommandSignature = Static<typeof CommandSignature>;

/** Every command names who gives it and what it is, and may carry its party's signature (D2). */
const command = <T extends string, P extends Record<string, import("@sinclair/typebox").TSchema>>(
  type: T,
  properties: P,
) =>
  Type.Object(
    { type: Type.Literal(type), actor: Actor, ...properties, signature: Type.Optional(CommandSignature) },
    { additionalProperties: false },
  );

export const CreateCampaign = command("CreateCampaign", {
  ...campaignTerms,
  options: Type.Optional(Options),
  catalogue: Catalogue,
});

export const RegisterArmy = command("RegisterArmy", {
  army: Id,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  /** Formations from the catalogue, each with an id unique within the army; all start at full strength. */
  formations: Type.Array(FormationEntry, {
    minItems: 1,
    maxItems: 200,
  }),
  commander: Type.Object({ formation: Id, unitType: Id }, { additionalProperties: false }),
});

export const PlaceHomeBase = command("PlaceHomeBase", { at: Square });

export const PlaceObjective = command("PlaceObjective", {
  /** Defaults to "<player>-com<n>". */
  objective: Type.Optional(Id),
  at: Square,
});

export const DeployArmy = command("DeployArmy", { army: Id, at: Square });

export const StartCampaign = command("StartCampaign", {});

/** A player commits to the SHA-256 of its secret dice seed for the next turn, before the host draws its own (D1). */
export const CommitSeed = command("CommitSeed", { seedHash: Sha256 });

/** The host begins a turn, committing to the SHA-256 of its secret dice seed for the turn (D1). */
export const StartTurn = command("StartTurn", { hostSeedHash: Sha256 });

/** A player gives its dice seed for the turn once the host has committed; it must hash to the player's commitment (D1). */
export const GiveSeed = command("GiveSeed", { seed: Nonce });

/** The host records the initiative dice it drew from the turn's seeds (T2); they are recomputable once the turn ends. */
export const RollInitiative = command("RollInitiative", {
  rounds: Type.Array(IdRecord(Type.Integer({ minimum: 1, maximum: 6 })), { minItems: 1, maxItems: 100 }),
});

/** The initiative winner chooses who activates first (T2). */
export const ChooseFirst = command("ChooseFirst", { first: Id });

/** Activate an army: a commitment to its hidden order, and the squares it moves through (T3-T5, M1-M5). */
export const ActivateArmy = command("ActivateArmy", {
  army: Id,
  commitment: Sha256,
  path: Type.Array(Square, { maxItems: 100 }),
});

/** Reveal an army's order and salt; they must match its commitment (T5). */
export const RevealOrder = command("RevealOrder", { army: Id, order: Order, salt: Nonce });

/** The host ends the Action phase once every army is activated, recording any withheld reveals (T5). */
export const CloseActionPhase = command("CloseActionPhase", {});
/** T5 stall ruling: a player who owes nothing shows that the Action phase waits on the other. */
export const ClaimStall = command("ClaimStall", {});

/**
 * A3: before its activation, an army reveals its Advance order (the commitment its activation will carry, and the salt
 * that opens it) and scouts an enemy army it could reach and engage this move.
 */
export const ScoutArmy = command("ScoutArmy", { army: Id, target: Id, commitment: Sha256, salt: Nonce });

/**
 * A3: the scouted player answers a scouting: with `firstFire` it reveals its army's First Fire order for the +2 (the
 * army's commitment and salt; an army not yet activated commits now to the order its activation must carry).
 */
export const AnswerScouting = command("AnswerScouting", {
  scouting: Id,
  firstFire: Type.Optional(Type.Object({ commitment: Sha256, salt: Nonce }, { additionalProperties: false })),
});

/** A3, D1: the host records the scouting dice it drew from the turn's seeds; they are recomputable once the turn ends. */
export const RollScouting = command("RollScouting", {
  scouting: Id,
  rounds: Type.Array(
    Type.Object(
      {
        scout: Type.Tuple([Type.Integer({ minimum: 1, maximum: 6 }), Type.Integer({ minimum: 1, maximum: 6 })]),
        scouted: Type.Tuple([Type.Integer({ minimum: 1, maximum: 6 }), Type.Integer({ minimum: 1, maximum: 6 })]),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 100 },
  ),
});

/** A3: the scouted player tells the scout its army's size, within the band the roll allows. */
export const StateArmySize = command("StateArmySize", {
  scouting: Id,
  points: Type.Integer({ minimum: 0, maximum: 10000000 }),
});

/** A player of the battle enters its result (B4). */
export const ReportBattleResult = command("ReportBattleResult", { battle: Id, result: BattleResult });

/** The opponent confirms the reported result: the battle is resolved (B4-B6). */
export const ConfirmBattleResult = command("ConfirmBattleResult", { battle: Id });

/**
 * B4 with `options.battles: "model"`: the host enters the result the battle model drew from the turn's dice (D1), the
 * faces of the d10s it read (the client's prepare draws both).
 */
export const ResolveBattleByModel = command("ResolveBattleByModel", {
  battle: Id,
  dice: ModelDice,
  result: BattleResult,
});

/** The opponent rejects the reported result. */
export const RejectBattleResult = command("RejectBattleResult", { battle: Id });

/** E5: send formations of an army that has fought to In Transit. */
export const BreakDown = command("BreakDown", {
  army: Id,
  formations: Type.Array(Id, { minItems: 1, maxItems: 200 }),
  /** A company from the Reserves that takes the place of a broken-down company with support attached (E5). */
  replacement: Type.Optional(Type.Object({ id: Id, formation: Id }, { additionalProperties: false })),
});

/** E5: disband a whole army that has fought: it leaves the map, its units go In Transit. */
export const DisbandArmy = command("DisbandArmy", { army: Id });

/** E6a: a new army from full-strength formations in the Reserves, on the base line or home base. */
export const RaiseArmy = command("RaiseArmy", {
  army: Id,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  formations: Type.Array(FormationEntry, {
    minItems: 1,
    maxItems: 200,
  }),
  commander: Commander,
  at: Square,
});

/** E6b: bring a depleted formation back to exactly full strength from the Reserves. */
export const ReinforceFormation = command("ReinforceFormation", { army: Id, formation: Id });

/** E6c: replace a wiped-out formation with a different full-strength one from the Reserves. */
export const ReplaceFormation = command("ReplaceFormation", {
  army: Id,
  formation: Id,
  /** The new formation; a support or special one may name the company it is attached to (E5). */
  with: FormationEntry,
});

/** E6d: trade full-strength formations in the Reserves for their points and buy catalogue formations with them. */
export const TradeFormations = command("TradeFormations", {
  tradeIn: Type.Array(Id, { minItems: 1, maxItems: 100 }),
  buy: Type.Array(Id, { maxItems: 100 }),
});

/** A7: buy one off-table support item for the artillery roster, usable from the next turn on. */
export const BuySupport = command("BuySupport", {
  kind: SupportKind,
  /** Its id on the artillery roster; defaults to "<kind>-t<turn>", with "-2", "-3"... for more of a kind in a turn. */
  item: Type.Optional(Id),
});

/** A8: buy full-strength catalogue formations from the war chest into an army on the map, keeping it within M. */
export const BuyFormations = command("BuyFormations", {
  army: Id,
  formations: Type.Array(FormationEntry, {
    minItems: 1,
    maxItems: 200,
  }),
});

/** A8: buy a new army of full-strength catalogue formations from the war chest, placed on or next to the home base. */
export const BuyArmy = command("BuyArmy", {
  army: Id,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  formations: Type.Array(FormationEntry, {
    minItems: 1,
    maxItems: 200,
  }),
  commander: Commander,
  at: Square,
});

/** A8: buy defences from the war chest, point for point, on a square with an own army or an objective it holds. */
export const BuyDefences = command("BuyDefences", {
  at: Square,
  points: Type.Integer({ minimum: 1, maximum: 100000 }),
});

/** A8: pay from the war chest for titan damage carried between battles. */
export const RepairTitan = command("RepairTitan", {
  army: Id,
  /** The titan formation of the army. */
  formation: Id,
  /** Shields/fields to restore, 100 points each. */
  shields: Type.Integer({ minimum: 0, maximum: 100 }),
  /** Destroyed weapons to replace: like for like at half cost, or by another weapon named with its chart cost. */
  weapons: Type.Array(
    Type.Object(
      {
        destroyed: Type.String({ minLength: 1, maxLength: 80 }),
        replacement: Type.Optional(
          Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 80 }),
              points: Type.Integer({ minimum: 0, maximum: 100000 }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    { maxItems: 50 },
  ),
});

/** A8: pay from the war chest for repairs to a damaged titan held in the Reserves. */
export const RepairReserveTitan = command("RepairReserveTitan", {
  /** The titan's unit type. */
  unitType: Id,
  /** Which damaged titan of that type: its place in the Reserves' list, the most damaged first, from 0. */
  titan: Type.Integer({ minimum: 0, maximum: 1000 }),
  shields: RepairTitan.properties.shields,
  weapons: RepairTitan.properties.weapons,
});

/** A6: give an army whose commander was killed a new one, a surviving unit of the army able to lead it. */
export const AppointCommander = command("AppointCommander", { army: Id, commander: Commander });

/** A player is done with the End phase. */
export const FinishEndPhase = command("FinishEndPhase", {});

/** The host ends the turn and reveals its dice seed (D1, E2, E3). */
export const EndTurn = command("EndTurn", { hostSeed: Nonce });

/** The host pauses the campaign: every other command is refused until it resumes (O1). */
export const PauseCampaign = command("PauseCampaign", { reason: Type.Optional(PauseReason) });

/** The host resumes a paused campaign (O1). */
export const ResumeCampaign = command("ResumeCampaign", {});

/** D1: the faces of a kit roll the host drew from the turn's seeds, in the order the roll reads them. */
const KitFaces = Type.Array(Type.Integer({ minimum: 1, maximum: 20 }), { minItems: 1, maxItems: 500 });

/** K2: the attacker proposes the battle's scenario (the campaign's `attackerProposes`); an Assassination names its target. */
export const ProposeScenario = command("ProposeScenario", {
  battle: Id,
  scenario: Scenario,
  target: Type.Optional(AssassinationTarget),
});
/** K2: the defender accepts the attacker's proposal, or declines it (the host then rolls the scenario). */
export const AnswerScenario = command("AnswerScenario", { battle: Id, accept: Type.Boolean() });
/** K2: the side the campaign lets choose (`attackerChooses`, `defenderChooses`) sets the scenario. */
export const ChooseScenario = command("ChooseScenario", {
  battle: Id,
  scenario: Scenario,
  target: Type.Optional(AssassinationTarget),
});
/** K2, D1: the host rolls the scenario (the campaign's `rolled`, or a declined proposal). */
export const RollScenario = command("RollScenario", { battle: Id, dice: KitFaces });
/** K3, D1: the host rolls the battle's conditions on the tables the campaign rolls. */
export const RollBattleConditions = command("RollBattleConditions", { battle: Id, dice: KitFaces });
/** K3: a player agrees to fight a city battle enclosed (the campaign's `agreed`). */
export const AgreeEnclosed = command("AgreeEnclosed", { battle: Id });
/** K3: a player of the battle records that a battle turn ended at the table (Gravity Flux is then rolled). */
export const EndBattleTurn = command("EndBattleTurn", {
  battle: Id,
  battleTurn: Type.Integer({ minimum: 1, maximum: 99 }),
});
/** K3, D1: the host rolls Gravity Flux for the battle turn that ended. */
export const RollGravityFlux = command("RollGravityFlux", { battle: Id, dice: KitFaces });
/** K3, D1: the host rolls a battle turn's white-out under a blizzard. */
export const RollWhiteOut = command("RollWhiteOut", { battle: Id, dice: KitFaces });
/** K5: the owner of the formation under fire has the assistant allocate a volley's hits (seed 003). */
export const AllocateHits = command("AllocateHits", {
  battle: Id,
  volley: Type.Optional(Id),
  units: Type.Array(TargetUnit, { minItems: 1, maxItems: 200 }),
  hits: Type.Array(HitKind, { minItems: 1, maxItems: 500 }),
});
/** K5, D1: the host rolls a volley's saving throws. */
export const RollSaves = command("RollSaves", { battle: Id, volley: Id, dice: KitFaces });
/** K5 (Heresy): a player calls a barrage: its total barrage points and the models under the template. */
export const CallBarrage = command("CallBarrage", {
  battle: Id,
  barrage: Type.Optional(Id),
  barragePoints: Type.Integer({ minimum: 1, maximum: 1000 }),
  models: Type.Integer({ minimum: 1, maximum: 200 }),
});
/** K5, D1 (Heresy): the host rolls a d10 for each model under the barrage. */
export const RollBarrage = command("RollBarrage", { battle: Id, barrage: Id, dice: KitFaces });

/** The host sets or moves this turn's Action phase deadline, after which it may close the phase (O2, T5 stall). */
export const SetActionDeadline = command("SetActionDeadline", { at: DateTime });

/**
 * D2: a party puts its public key in force (its first, or one replacing a key lost), signed by that key. The host
 * registers the organiser's own key with `role: "organiser"`, and the dice keeper's (the host's steps) without.
 */
export const RegisterSeatKey = command("RegisterSeatKey", {
  publicKey: PublicKey,
  role: Type.Optional(Type.Literal(ORGANISER)),
});

/**
 * D1, T5: the host declares, as a branch's first event, what the fork leaves void on it (LineForked): the commitments
 * open at the fork, whose secrets stay on the parent line. Taken by whoever creates the branch; nothing to give.
 */
export const ForkLine = command("ForkLine", {});

/** D1 on a branch: the host commits to a fresh dice seed for the turn the fork voided, once the players have. */
export const ReseedTurn = command("ReseedTurn", { hostSeedHash: Sha256 });

/** T5 on a branch: a player commits afresh to the order of an army whose order the fork voided (a new salt). */
export const RecommitOrder = command("RecommitOrder", { army: Id, commitment: Sha256 });

export const COMMAND_SCHEMAS = {
  CreateCampaign,
  RegisterArmy,
  PlaceHomeBase,
  PlaceObjective,
  DeployArmy,
  StartCampaign,
  CommitSeed,
  StartTurn,
  GiveSeed,
  RollInitiative,
  ChooseFirst,
  ActivateArmy,
  RevealOrder,
  CloseActionPhase,
  ClaimStall,
  ScoutArmy,
  AnswerScouting,
  RollScouting,
  StateArmySize,
  ReportBattleResult,
  ConfirmBattleResult,
  ResolveBattleByModel,
  RejectBattleResult,
  BreakDown,
  DisbandArmy,
  RaiseArmy,
  ReinforceFormation,
  ReplaceFormation,
  TradeFormations,
  BuyFormations,
  BuyArmy,
  BuyDefences,
  RepairTitan,
  RepairReserveTitan,
  AppointCommander,
  FinishEndPhase,
  EndTurn,
  BuySupport,
  PauseCampaign,
  ResumeCampaign,
  SetActionDeadline,
  ProposeScenario,
  AnswerScenario,
  ChooseScenario,
  RollScenario,
  RollBattleConditions,
  AgreeEnclosed,
  EndBattleTurn,
  RollGravityFlux,
  RollWhiteOut,
  AllocateHits,
  RollSaves,
  CallBarrage,
  RollBarrage,
  RegisterSeatKey,
  ForkLine,
  ReseedTurn,
  RecommitOrder,
} as const satisfies Record<string, TObject>;

export type CommandType = keyof typeof COMMAND_SCHEMAS;
export type Command = { [K in CommandType]: Static<(typeof COMMAND_SCHEMAS)[K]> }[CommandType];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

const ajv = new Ajv({ strict: true, verbose: true });
/** Compiled on a type's first check (compiling every command's schema slowed every start of the CLI). */
const validators = new Map<CommandType, ValidateFunction>();
const validatorOf = (type: CommandType): ValidateFunction => {
  let validate = validators.get(type);
  if (!validate) validators.set(type, (validate = ajv.compile(COMMAND_SCHEMAS[type])));
  return validate;
};

export type CommandCheck = { ok: true; command: Command } | { ok: false; field: string; message: string };

/** Schema-checks a command before any rule runs: a known type, and every field of the right shape. */
export function checkCommand(input: unknown): CommandCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, field: "command", message: 'must be a JSON object with "type" and "actor"' };
  }
  const type = (input as { type?: unknown }).type;
  if (typeof type !== "string") return { ok: false, field: "type", message: "is required: the command's name" };
  if (!Object.hasOwn(COMMAND_SCHEMAS, type)) {
    return {
      ok: false,
      field: "type",
      message: `unknown command type "${type}" (known: ${Object.keys(COMMAND_SCHEMAS).join(", ")})`,
    };
  }
  const validate = validatorOf(type as CommandType);
  if (!validate(input)) return { ok: false, ...describeAjvError(validate.errors, "") };
  return { ok: true, command: input as Command };
}
