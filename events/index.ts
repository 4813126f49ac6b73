import { Ajv, type ValidateFunction, type ErrorObject } from "ajv";
import { ID_PATTERN, NONCE_PATTERN, SHA256_PATTERN } from "./common.js";
import { choiceMessage, unknownFieldMessage } from "./schema-choices.js";
import { ArmyDeployed } from "./ArmyDeployed.js";
import { ArmyRegistered } from "./ArmyRegistered.js";
import { CampaignCreated } from "./CampaignCreated.js";
import { CampaignStarted } from "./CampaignStarted.js";
import type { DataOf, EventDefinition } from "./define.js";
import { HomeBasePlaced } from "./HomeBasePlaced.js";
import { ObjectivePlaced } from "./ObjectivePlaced.js";
import type { NewEvent, StoredEvent } from "./envelope.js";
import { TurnStarted } from "./TurnStarted.js";
import { PlayerSeedCommitted } from "./PlayerSeedCommitted.js";
import { PlayerSeedGiven } from "./PlayerSeedGiven.js";
import { InitiativeRolled } from "./InitiativeRolled.js";
import { FirstPlayerChosen } from "./FirstPlayerChosen.js";
import { ArmyActivated } from "./ArmyActivated.js";
import { ArmyMoved } from "./ArmyMoved.js";
import { ObjectiveCaptured } from "./ObjectiveCaptured.js";
import { CityCaptured } from "./CityCaptured.js";
import { BattleStarted } from "./BattleStarted.js";
import { OrderRevealed } from "./OrderRevealed.js";
import { RevealRejected } from "./RevealRejected.js";
import { OrderViolated } from "./OrderViolated.js";
import { ActionPhaseEnded } from "./ActionPhaseEnded.js";
import { BattleResultReported } from "./BattleResultReported.js";
import { BattleResultRejected } from "./BattleResultRejected.js";
import { BattleResolved } from "./BattleResolved.js";
import { ArmyRouted } from "./ArmyRouted.js";
import { ArmyWithdrew } from "./ArmyWithdrew.js";
import { ArmyOccupied } from "./ArmyOccupied.js";
import { BattlePhaseEnded } from "./BattlePhaseEnded.js";
import { TransitArrived } from "./TransitArrived.js";
import { FormationsBrokenDown } from "./FormationsBrokenDown.js";
import { ArmyDisbanded } from "./ArmyDisbanded.js";
import { ArmyRaised } from "./ArmyRaised.js";
import { FormationReinforced } from "./FormationReinforced.js";
import { FormationReplaced } from "./FormationReplaced.js";
import { FormationsTraded } from "./FormationsTraded.js";
import { EndPhaseFinished } from "./EndPhaseFinished.js";
import { DefencesBuilt } from "./DefencesBuilt.js";
import { TurnEnded } from "./TurnEnded.js";
import { CampaignFinished } from "./CampaignFinished.js";
import { StallClaimed } from "./StallClaimed.js";
import { CommanderAppointed } from "./CommanderAppointed.js";
import { CommanderPromoted } from "./CommanderPromoted.js";
import { CommanderKilled } from "./CommanderKilled.js";
import { CommanderStoodDown } from "./CommanderStoodDown.js";
import { ScoutingDeclared } from "./ScoutingDeclared.js";
import { ScoutingAnswered } from "./ScoutingAnswered.js";
import { ScoutingRolled } from "./ScoutingRolled.js";
import { ArmySizeStated } from "./ArmySizeStated.js";
import { WarChestIncomeRecorded } from "./WarChestIncomeRecorded.js";
import { FormationsPurchased } from "./FormationsPurchased.js";
import { ArmyPurchased } from "./ArmyPurchased.js";
import { DefencesPurchased } from "./DefencesPurchased.js";
import { TitanDamageCarried } from "./TitanDamageCarried.js";
import { TitanRepaired } from "./TitanRepaired.js";
import { ReserveTitanRepaired } from "./ReserveTitanRepaired.js";
import { SupportPurchased } from "./SupportPurchased.js";
import { SupportExpended } from "./SupportExpended.js";
import { CampaignPaused } from "./CampaignPaused.js";
import { CampaignResumed } from "./CampaignResumed.js";
import { ActionDeadlineSet } from "./ActionDeadlineSet.js";
import { ActionDeadlineEnforced } from "./ActionDeadlineEnforced.js";
import { ScenarioProposed } from "./ScenarioProposed.js";
import { ScenarioAnswered } from "./ScenarioAnswered.js";
import { ScenarioChosen } from "./ScenarioChosen.js";
import { ScenarioRolled } from "./ScenarioRolled.js";
import { BattleConditionsRolled } from "./BattleConditionsRolled.js";
import { EnclosedAgreed } from "./EnclosedAgreed.js";
import { BattleTurnEnded } from "./BattleTurnEnded.js";
import { GravityFluxRolled } from "./GravityFluxRolled.js";
import { HitsAllocated } from "./HitsAllocated.js";
import { SavesRolled } from "./SavesRolled.js";
import { BarrageCalled } from "./BarrageCalled.js";
import { BarrageRolled } from "./BarrageRolled.js";
import { WhiteOutRolled } from "./WhiteOutRolled.js";
import { SeatKeyRegistered } from "./SeatKeyRegistered.js";
import { LineForked } from "./LineForked.js";
import { TurnReseeded } from "./TurnReseeded.js";
import { OrderRecommitted } from "./OrderRecommitted.js";

/** Every event type the engine can write, at its current version. */
export const EVENT_DEFINITIONS = [
  CampaignCreated,
  ArmyRegistered,
  HomeBasePlaced,
  ObjectivePlaced,
  ArmyDeployed,
  CampaignStarted,
  PlayerSeedCommitted,
  TurnStarted,
  PlayerSeedGiven,
  InitiativeRolled,
  FirstPlayerChosen,
  ArmyActivated,
  ArmyMoved,
  ObjectiveCaptured,
  CityCaptured,
  BattleStarted,
  OrderRevealed,
  RevealRejected,
  OrderViolated,
  ActionPhaseEnded,
  BattleResultReported,
  BattleResultRejected,
  BattleResolved,
  ArmyRouted,
  ArmyWithdrew,
  ArmyOccupied,
  BattlePhaseEnded,
  TransitArrived,
  FormationsBrokenDown,
  ArmyDisbanded,
  ArmyRaised,
  FormationReinforced,
  FormationReplaced,
  FormationsTraded,
  EndPhaseFinished,
  DefencesBuilt,
  TurnEnded,
  CampaignFinished,
  StallClaimed,
  CommanderAppointed,
  CommanderPromoted,
  CommanderKilled,
  CommanderStoodDown,
  ScoutingDeclared,
  ScoutingAnswered,
  ScoutingRolled,
  ArmySizeStated,
  WarChestIncomeRecorded,
  FormationsPurchased,
  ArmyPurchased,
  DefencesPurchased,
  TitanDamageCarried,
  TitanRepaired,
  ReserveTitanRepaired,
  SupportPurchased,
  SupportExpended,
  CampaignPaused,
  CampaignResumed,
  ActionDeadlineSet,
  ActionDeadlineEnforced,
  ScenarioProposed,
  ScenarioAnswered,
  ScenarioChosen,
  ScenarioRolled,
  BattleConditionsRolled,
  EnclosedAgreed,
  BattleTurnEnded,
  GravityFluxRolled,
  HitsAllocated,
  SavesRolled,
  BarrageCalled,
  BarrageRolled,
  WhiteOutRolled,
  SeatKeyRegistered,
  LineForked,
  TurnReseeded,
  OrderRecommitted,
] as const;

/** Every event definition of the catalogue, as a union. */
export type Definitions = (typeof EVENT_DEFINITIONS)[number];
export type EventType = Definitions["type"];

/** A domain event at its current version: the union of every type and its schema-derived data. */
export type DomainEvent = {
  [D in Definitions as D["type"]]: { type: D["type"]; data: DataOf<D> };
}[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
/** The data of a domain event of type T at its current version. */
export type EventData<T extends EventType> = EventOf<T>["data"];

/** A stored event whose data has been upcast to the current version. */
export type CurrentEvent = Omit<StoredEvent, "type" | "data"> & DomainEvent;

export * from "./envelope.js";
export { defineEvent, type EventDefinition, type Upcaster } from "./define.js";

export interface SchemaProblem {
  field: string;
  message: string;
}

const ID_RULE =
  "must be an id: 1 to 64 letters, digits, _ . or -, starting with a letter or digit, and not a built-in name such as constructor";

/** Turns ajv's first error into a field path and a sentence (validators compiled with `verbose: true` name id keys). */
export function describeAjvError(errors: ErrorObject[] | null | undefined, root: string): SchemaProblem {
  const error = errors?.[0];
  let path = (error?.instancePath ?? "").replace(/\/(\d+)/g, "[$1]").replace(/\//g, ".");
  let message = error?.message ?? "is invalid";
  const choice = error && choiceMessage(errors!, error);
  if (choice) {
    message = choice;
  } else if (error?.keyword === "additionalProperties") {
    path += `.${String(error.params["additionalProperty"])}`;
    const keyedByIds =
      (error.parentSchema as { patternProperties?: unknown } | undefined)?.patternProperties !== undefined;
    message = keyedByIds ? ID_RULE : unknownFieldMessage(error);
  } else if (error?.keyword === "required") {
    path += `.${String(error.params["missingProperty"])}`;
    message = "is required";
  } else if (error?.keyword === "pattern" && error.params["pattern"] === ID_PATTERN) {
    message = ID_RULE;
  } else if (error?.keyword === "pattern" && error.params["pattern"] === NONCE_PATTERN) {
    message = "must be 32 to 128 lower-case hex characters (at least 128 random bits)";
  } else if (error?.keyword === "pattern" && error.params["pattern"] === SHA256_PATTERN) {
    message = "must be a SHA-256: 64 lower-case hex characters";
  }
  return { field: root ? `${root}${path}` : path.replace(/^\./, "") || "(the whole value)", message };
}

/**
 * The event catalogue: validators and upcasters for a set of event definitions. A type's validator is compiled the
 * first time an event of that type is checked: compiling all of them took about a third of a second at every start
 * of the CLI, whose commands write a few types or none.
 */
export class EventCatalogue {
  private readonly byType = new Map<string, { definition: EventDefinition; validate?: ValidateFunction }>();
  private readonly ajv = new Ajv({ allErrors: false, strict: true, verbose: true });

  constructor(definitions: readonly EventDefinition[]) {
    for (const definition of definitions) this.byType.set(definition.type, { definition });
  }

  definition(type: string): EventDefinition | undefined {
    return this.byType.get(type)?.definition;
  }

  /** Checks an event about to be written: a known type, at its current version, with valid data. */
  check(event: Pick<NewEvent, "type" | "version" | "data">): SchemaProblem | undefined {
    const entry = this.byType.get(event.type);
    if (!entry) return { field: "type", message: `unknown event type "${event.type}"` };
    if (event.version !== entry.definition.version) {
      return {
        field: "version",
        message: `${event.type} is written at version ${entry.definition.version}, not ${event.version}`,
      };
    }
    entry.validate ??= this.ajv.compile(entry.definition.schema);
    if (!entry.validate(event.data)) return describeAjvError(entry.validate.errors, `${event.type}.data`);
    return undefined;
  }

  /**
   * Checks an event as stored, at any version this engine reads: a known type, a version from 1 to the current one,
   * and data that is valid once lifted to the current version (what every reader of the log folds).
   */
  checkStored(event: Pick<NewEvent, "type" | "version" | "data">): SchemaProblem | undefined {
    const definition = this.byType.get(event.type)?.definition;
    if (!definition) return { field: "type", message: `unknown event type "${event.type}"` };
    if (!Number.isInteger(event.version) || event.version < 1 || event.version > definition.version)
      return {
        field: "version",
        message: `${event.type} has versions 1 to ${definition.version} in this engine, not ${String(event.version)}`,
      };
    let lifted: unknown;
    try {
      lifted = this.upcast(event).data;
    } catch (error) {
      return {
        field: `${event.type}.data`,
        message: `cannot be read at version ${event.version}: ${(error as Error).message}`,
      };
    }
    return this.check({ type: event.type, version: definition.version, data: lifted });
  }

  /** Lifts a stored event of any known version to the current version of its type. */
  upcast<E extends { type: string; version: number; data: unknown }>(event: E): E {
    const entry = this.byType.get(event.type);
    if (!entry) throw new Error(`unknown event type "${event.type}" at read`);
    const { definition } = entry;
    if (event.version === definition.version) return event;
    if (event.version > definition.version) {
      throw new Error(`${event.type} v${event.version} is newer than this engine (v${definition.version})`);
    }
    let data = event.data;
    for (let v = event.version; v < definition.version; v++) data = definition.upcasters[v]!(data);
    return { ...event, version: definition.version, data };
  }
}

export const catalogue = new EventCatalogue(EVENT_DEFINITIONS);

/** Reads a stored event as the current version of its type. */
export function toCurrent(event: StoredEvent): CurrentEvent {
  return catalogue.upcast(event) as CurrentEvent;
}
