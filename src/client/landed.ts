/**
 * Whether a command whose answer was lost was written: the server decides a request only at the seq it expected, so
 * if it was, its events are the first ones after that seq. They are its if the first is by the command's actor, of a
 * type its decision begins with, and agrees with it on every plain field both name (the army, the battle, the seed's
 * hash, the salt...): another command of the same seat, sent from its other client, differs in one of those.
 */
import type { EventType, StoredEvent } from "../../events/index.js";
import type { Command } from "../engine/command-schemas.js";
import type { EventView } from "../views/view.js";

/** The event types each command's decision (src/engine/decide.ts) begins with; test/remote/landed.test.ts checks them. */
const FIRST_EVENTS: { readonly [T in Command["type"]]: readonly EventType[] } = {
  CreateCampaign: ["CampaignCreated"],
  RegisterSeatKey: ["SeatKeyRegistered"],
  RegisterArmy: ["ArmyRegistered"],
  PlaceHomeBase: ["HomeBasePlaced"],
  PlaceObjective: ["ObjectivePlaced"],
  DeployArmy: ["ArmyDeployed"],
  StartCampaign: ["CampaignStarted"],
  CommitSeed: ["PlayerSeedCommitted"],
  ForkLine: ["LineForked"],
  ReseedTurn: ["TurnReseeded"],
  RecommitOrder: ["OrderRecommitted"],
  StartTurn: ["TurnStarted"],
  GiveSeed: ["PlayerSeedGiven"],
  RollInitiative: ["InitiativeRolled"],
  ChooseFirst: ["FirstPlayerChosen"],
  ActivateArmy: ["ArmyActivated"],
  RevealOrder: ["OrderRevealed", "RevealRejected"],
  CloseActionPhase: ["ActionPhaseEnded", "ActionDeadlineEnforced"],
  ClaimStall: ["StallClaimed"],
  ScoutArmy: ["ScoutingDeclared"],
  AnswerScouting: ["ScoutingAnswered"],
  RollScouting: ["ScoutingRolled"],
  StateArmySize: ["ArmySizeStated"],
  ReportBattleResult: ["BattleResultReported"],
  ConfirmBattleResult: ["BattleResolved"],
  ResolveBattleByModel: ["BattleResolved"],
  RejectBattleResult: ["BattleResultRejected"],
  BreakDown: ["FormationsBrokenDown"],
  DisbandArmy: ["ArmyDisbanded"],
  RaiseArmy: ["ArmyRaised"],
  ReinforceFormation: ["FormationReinforced"],
  ReplaceFormation: ["FormationReplaced"],
  TradeFormations: ["FormationsTraded"],
  BuyFormations: ["FormationsPurchased"],
  BuyArmy: ["ArmyPurchased"],
  BuyDefences: ["DefencesPurchased"],
  RepairTitan: ["TitanRepaired"],
  RepairReserveTitan: ["ReserveTitanRepaired"],
  AppointCommander: ["CommanderAppointed"],
  FinishEndPhase: ["EndPhaseFinished"],
  EndTurn: ["TurnEnded", "DefencesBuilt"],
  BuySupport: ["SupportPurchased"],
  PauseCampaign: ["CampaignPaused"],
  ResumeCampaign: ["CampaignResumed"],
  SetActionDeadline: ["ActionDeadlineSet"],
  ProposeScenario: ["ScenarioProposed"],
  AnswerScenario: ["ScenarioAnswered"],
  ChooseScenario: ["ScenarioChosen"],
  RollScenario: ["ScenarioRolled"],
  RollBattleConditions: ["BattleConditionsRolled"],
  AgreeEnclosed: ["EnclosedAgreed"],
  EndBattleTurn: ["BattleTurnEnded"],
  RollGravityFlux: ["GravityFluxRolled"],
  RollWhiteOut: ["WhiteOutRolled"],
  AllocateHits: ["HitsAllocated"],
  RollSaves: ["SavesRolled"],
  CallBarrage: ["BarrageCalled"],
  RollBarrage: ["BarrageRolled"],
};

/** The event types a command's decision may begin with (none for a type that is no command). */
export function firstEventsOf(type: string): readonly string[] {
  return (FIRST_EVENTS as Record<string, readonly string[] | undefined>)[type] ?? [];
}

/**
 * Whether `written`, the events right after the seq a request of these commands expected (as the seat gets them:
 * src/client/remote.ts's SeatEvent), are that request's.
 */
export function landed(commands: readonly unknown[], written: readonly EventView<StoredEvent>[]): boolean {
  const command = commands[0] as Record<string, unknown> | undefined;
  const first = written[0] as (EventView<StoredEvent> & { data?: Record<string, unknown> }) | undefined;
  if (!command || !first || first.actor !== command["actor"]) return false;
  if (!firstEventsOf(String(command["type"])).includes(first.type)) return false;
  const data = first.data ?? {};
  return Object.entries(command).every(
    ([field, value]) =>
      field === "actor" ||
      field === "type" ||
      !(field in data) ||
      typeof value === "object" ||
      value === undefined ||
      data[field] === value,
  );
}
