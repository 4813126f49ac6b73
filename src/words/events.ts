import type { BattleResult, Commander } from "../../events/common.js";
import { toCurrent, type CurrentEvent, type EventType, type StoredEvent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { SUPPORT_PRICES } from "../../projections/support.js";
import { conditionsSummary, scenarioName } from "./battle-kit.js";
import { sq } from "../rules/refusal.js";
import { ORDER_NAMES } from "./orders.js";
import {
  HIDDEN,
  viewEvent,
  viewedContent,
  type Hidden,
  type Viewer,
  type ViewedData,
  type ViewedDomainEvent,
} from "../views/view.js";

/**
 * The words that describe events: one sentence per event type, as a viewer may see it. The CLI, the timeline and the
 * demo all speak of events through this module.
 */

/** One describer per event type, given the data as a viewer may see it: a secret field may be HIDDEN. */
type Describers = { [T in EventType]: (data: ViewedData<T>) => string };

export { ORDER_NAMES };
/** A number, or "?" where fog of war (A2) hides it. */
const n = (value: number | Hidden) => (value === HIDDEN ? "?" : value.toLocaleString("en"));
const short = (hex: string) => hex.slice(0, 12);
/** Ids, or "formations" where fog of war (A2) hides which. */
const list = (ids: readonly string[] | Hidden) => (ids === HIDDEN ? "formations" : ids.join(", "));
const units = (counts: Record<string, number> | Hidden) => {
  if (counts === HIDDEN) return "units";
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return `${total} unit${total === 1 ? "" : "s"}`;
};
/** A6: a commander and level as the viewer may see them. */
const commanderOf = (d: { commander: Commander | Hidden }) =>
  d.commander === HIDDEN ? "" : ` (${d.commander.unitType} of ${d.commander.formation})`;
const levelOf = (level: number | Hidden) => (level === HIDDEN ? "" : `, Commander level ${level}`);
/** D1: a kit roll's dice as "d6 3, d4 2". */
const dice = (rolled: ReadonlyArray<{ sides: number; face: number }>) =>
  rolled.map((die) => `d${die.sides} ${die.face}`).join(", ");
const result = (r: BattleResult) =>
  `${r.outcome === "draw" ? "a draw" : `${r.outcome} wins`}, VPs ${r.attacker.vp}-${r.defender.vp}`;

const describers: Describers = {
  CampaignCreated: (d) =>
    `campaign "${d.name}" created: ${d.map.width}x${d.map.height} map, ${d.players.map((p) => `${p.name} (${p.id}, ${p.baseLine})`).join(" vs ")}, ` +
    `M ${n(d.force.maxArmyPoints)} x N ${d.force.armies}`,
  ArmyRegistered: (d) =>
    `${d.player} registered army ${d.army} "${d.name}" (${d.formations === HIDDEN ? "formations hidden" : `${d.formations.length} formations`})`,
  HomeBasePlaced: (d) => `${d.player} placed its home base at ${sq(d.at)}`,
  ObjectivePlaced: (d) => `${d.placedBy} placed objective ${d.objective} at ${sq(d.at)}`,
  ArmyDeployed: (d) => `army ${d.army} deployed at ${sq(d.at)}`,
  CampaignStarted: (d) => `set-up complete: turn ${d.turn} begins`,
  PlayerSeedCommitted: (d) => `${d.player} commits to its dice seed for turn ${d.turn} ${short(d.seedHash)}`,
  TurnStarted: (d) => `turn ${d.turn} begins; the host commits to its dice seed ${short(d.hostSeedHash)}`,
  PlayerSeedGiven: (d) => `${d.player} gives its dice seed for turn ${d.turn}, as committed`,
  LineForked: (d) =>
    `this branch forks its parent line: void here ${[
      d.voidedSeeds.length > 0 ? `the dice seeds of ${d.voidedSeeds.join(", ")} for turn ${d.turn}` : "",
      d.voidedOrders.length > 0 ? `the hidden orders of ${d.voidedOrders.map((o) => o.army).join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(
        " and ",
      )}, made afresh on this line${d.voidedSeeds.includes("host") ? ` (its dice from die ${d.fromDie} on)` : ""}`,
  TurnReseeded: (d) =>
    `the host commits to a fresh dice seed ${short(d.hostSeedHash)} for turn ${d.turn}, dice from ${d.fromDie} on`,
  OrderRecommitted: (d) => `${d.player} commits afresh to ${d.army}'s hidden order`,
  InitiativeRolled: (d) =>
    `initiative: ${d.rounds
      .map((round) =>
        Object.entries(round)
          .map(([p, v]) => `${p} ${v}`)
          .join(" v "),
      )
      .join(", reroll: ")}; ${d.winner} wins`,
  FirstPlayerChosen: (d) => `${d.chosenBy} chooses ${d.first} to activate first`,
  ArmyActivated: (d) =>
    `${d.player} activates ${d.army}${d.engaged ? " (attacked before its turn: it may not move)" : ""} with a hidden order`,
  ArmyMoved: (d) => `${d.army} moves ${sq(d.from)}->${d.path.map(sq).join("->")}`,
  ObjectiveCaptured: (d) =>
    `${d.by} captures ${d.kind === "homeBase" ? `${d.objective}'s home base` : `objective ${d.objective}`} with ${d.army}${d.how === "battle" ? " by winning the battle there" : ""}`,
  CityCaptured: (d) =>
    `${d.by} captures the city at ${sq(d.at)} with ${d.army}${d.how === "battle" ? " by winning the battle there" : ""}`,
  BattleStarted: (d) => `battle ${d.battle} at ${sq(d.at)}: ${d.attacker} attacks ${d.defender}`,
  OrderRevealed: (d) => `${d.army}'s order was ${ORDER_NAMES[d.order]}`,
  RevealRejected: (d) =>
    `CHEATING: ${d.player}'s reveal of ${ORDER_NAMES[d.order]} for ${d.army} does not match its commitment`,
  OrderViolated: (d) =>
    `CHEATING (${d.rule}): ${d.army} on ${ORDER_NAMES[d.order]}: ${d.detail} (event #${d.evidenceSeq})`,
  ActionPhaseEnded: (d) =>
    `${d.notActivated ? `the host closed the stalled Action phase; not activated: ${d.notActivated.join(", ")}` : "all orders are in"}` +
    `${d.withheld.length ? `; never revealed: ${d.withheld.join(", ")}` : ""}; the Battle phase begins`,
  ActionDeadlineSet: (d) => `the host sets the deadline of turn ${d.turn}'s Action phase at ${d.deadline}`,
  ActionDeadlineEnforced: (d) =>
    `the deadline of turn ${d.turn}'s Action phase (${d.deadline}) has passed and the host closes it, waiting on ` +
    [
      ...d.owed.map((item) => `${item.army}'s ${item.owes} (${item.player}, battle ${item.battle})`),
      ...d.notActivated.map((item) => `${item.army}'s activation (${item.player})`),
    ].join(", "),
  CampaignPaused: (d) => `the host pauses the campaign${d.reason === undefined ? "" : `: ${d.reason}`}`,
  CampaignResumed: () => "the host resumes the campaign",
  SeatKeyRegistered: (d) =>
    d.replaces === null
      ? `${d.party}'s key ${d.publicKey.slice(0, 12)} comes into force`
      : `WARNING: ${d.party}'s key is replaced: ${d.publicKey.slice(0, 12)} takes over from ${d.replaces.slice(0, 12)}; whoever holds ${d.party}'s seat now signs for it`,
  StallClaimed: (d) =>
    `${d.by} claims the Action phase is stalled, waiting on ${d.owed.map((item) => `${item.army}'s ${item.owes} (${item.player})`).join(", ")}`,
  BattleResultReported: (d) => `${d.by} reports battle ${d.battle}: ${result(d.result)}`,
  BattleResultRejected: (d) => `${d.by} rejects the reported result of battle ${d.battle}`,
  BattleResolved: (d) =>
    `battle ${d.battle}: ${d.winner ? `${d.winner} wins${d.overwhelming ? " overwhelmingly" : ""}` : "a draw"} (VPs ${d.result.attacker.vp}-${d.result.defender.vp}); CVPs ${Object.entries(
      d.cvps,
    )
      .map(([p, c]) => `${p} +${c}`)
      .join(", ")}${d.resolvedBy === "model" ? "; resolved by the battle model" : ""}`,
  ArmyRouted: (d) => `${d.army} is routed: ${units(d.units)} go In Transit`,
  ArmyWithdrew: (d) => `${d.army} falls back to ${sq(d.to)}`,
  ArmyOccupied: (d) => `${d.army} occupies ${sq(d.at)}`,
  BattlePhaseEnded: (d) => `every battle of turn ${d.turn} is fought; the End phase begins`,
  TransitArrived: (d) => `${units(d.units)} of ${d.player} sent In Transit in turn ${d.sentTurn} join the Reserves`,
  FormationsBrokenDown: (d) =>
    `${d.player} breaks down ${list(d.formations)} of ${d.army}: ${units(d.units)} go In Transit`,
  ArmyDisbanded: (d) => `${d.player} disbands ${d.army}: ${units(d.units)} go In Transit`,
  ArmyRaised: (d) => `${d.player} raises a new army ${d.army} "${d.name}" from the Reserves at ${sq(d.at)}`,
  FormationReinforced: (d) =>
    `${d.player} brings ${d.formation} of ${d.army} back to full strength (${units(d.units)} from the Reserves)`,
  FormationReplaced: (d) =>
    `${d.player} replaces the lost ${d.replaced} of ${d.army} with ${d.formation === HIDDEN ? "another formation" : d.formation.formation}`,
  FormationsTraded: (d) =>
    `${d.player} trades in ${list(d.tradedIn)} (${n(d.points)} points) for ${list(d.bought) || "nothing"}`,
  EndPhaseFinished: (d) => `${d.player} is done with the End phase`,
  DefencesBuilt: (d) => `${d.army} builds ${n(d.points)} points of defences at ${sq(d.at)}`,
  TurnEnded: (d) =>
    `turn ${d.turn} ends: CVPs ${Object.entries(d.cvps)
      .map(([p, c]) => `${p} ${c}`)
      .join(", ")}; the host reveals its dice seed ${short(d.hostSeed)}`,
  CampaignFinished: (d) =>
    (d.winner ? `${d.winner} wins the campaign` : "the campaign ends in a draw") + ` at the end of turn ${d.turn}`,
  ScoutingDeclared: (d) =>
    `${d.player} reveals ${d.army}'s Advance order and scouts ${d.target} (scouting ${d.scouting}${d.bonus > 0 ? ", +2 for scout units" : ""})`,
  ScoutingAnswered: (d) =>
    d.firstFire
      ? `${d.player} reveals ${d.army}'s First Fire order against scouting ${d.scouting}: +2`
      : `${d.player} takes no bonus against scouting ${d.scouting}`,
  ScoutingRolled: (d) =>
    `scouting ${d.scouting}: ${d.rounds.map((r) => `${r.scout.join("+")} v ${r.scouted.join("+")}`).join(", reroll: ")}; totals ${d.scoutTotal} v ${d.scoutedTotal} (${d.band})`,
  ArmySizeStated: (d) => `${d.player} states ${d.army} is ${n(d.points)} points (scouting ${d.scouting})`,
  CommanderAppointed: (d) => `${d.army} of ${d.player} gets a commander${commanderOf(d)}${levelOf(d.level)}`,
  CommanderPromoted: (d) =>
    `the commander of ${d.army} survives battle ${d.battle} and rises${d.level === HIDDEN ? " a level" : ` to level ${d.level}`}`,
  CommanderKilled: (d) =>
    `the commander of ${d.army}${commanderOf(d)} is killed in battle ${d.battle}: ${d.player} must appoint a new one`,
  CommanderStoodDown: (d) =>
    `the commander of ${d.army}${commanderOf(d)}${levelOf(d.level)} leaves the map with it and waits for a new army`,
  SupportPurchased: (d) =>
    `${d.player} buys a ${SUPPORT_PRICES[d.kind].name} (${d.item}) for ${n(d.cost)} points from its ${d.paidFrom === "warChest" ? "war chest" : "support fund"}; usable from turn ${d.turn + 1}`,
  SupportExpended: (d) =>
    `${d.player} called in ${d.items.join(", ")} in battle ${d.battle}: struck off its artillery roster`,
  WarChestIncomeRecorded: (d) => {
    const items = `${d.items.length} items, ${n(d.total)} in all${d.ceilingCut > 0 ? `, ${n(d.ceilingCut)} over the 20% ceiling` : ""}`;
    // Under fog of war (A2) the enemy's balance, and what a deduction stopped at 0 would tell of it, are HIDDEN.
    if (d.change === HIDDEN || d.floorCut === HIDDEN || d.balance === HIDDEN)
      return `${d.player}'s war chest income: ${items}`;
    return (
      `${d.player}'s war chest ${d.change >= 0 ? "gains" : "loses"} ${n(Math.abs(d.change))} points (${items}` +
      `${d.floorCut > 0 ? `, ${n(d.floorCut)} not deducted below 0` : ""}): balance ${n(d.balance)}`
    );
  },
  FormationsPurchased: (d) =>
    `${d.player} buys ${d.formations === HIDDEN ? "formations" : d.formations.map((f) => f.formation).join(", ")} into ${d.army}` +
    `${d.cost === HIDDEN ? "" : ` for ${n(d.cost)} points`} from its war chest`,
  ArmyPurchased: (d) =>
    `${d.player} buys a new army ${d.army} "${d.name}"${d.cost === HIDDEN ? "" : ` for ${n(d.cost)} points`} from its war chest, at ${sq(d.at)}`,
  DefencesPurchased: (d) => `${d.player} buys ${n(d.points)} points of defences at ${sq(d.at)} from its war chest`,
  TitanDamageCarried: (d) => {
    const titans = Object.keys(d.damage);
    return `${d.army} carries the damage of its titan formation${titans.length > 1 ? "s" : ""} ${titans.join(", ")} from battle ${d.battle} until repaired`;
  },
  TitanRepaired: (d) =>
    // Under fog of war (A2) which titan and what was repaired are the enemy's own.
    d.formation === HIDDEN || d.shields === HIDDEN || d.weapons === HIDDEN
      ? `${d.player} repairs a titan of ${d.army} from its war chest`
      : `${d.player} repairs the titan formation ${d.formation} of ${d.army} (${d.shields} shields/fields, ${d.weapons.length} weapons) for ${n(d.cost)} points from its war chest`,
  ReserveTitanRepaired: (d) =>
    `${d.player} repairs ${d.unitType === HIDDEN ? "a titan" : `a damaged ${d.unitType} titan`} in its Reserves${d.cost === HIDDEN ? "" : ` for ${n(d.cost)} points`} from its war chest`,
  ScenarioProposed: (d) =>
    `${d.player} proposes ${scenarioName(d.scenario)}${d.target ? ` (target: ${d.target.unitType} of ${d.target.army})` : ""} for battle ${d.battle}`,
  ScenarioAnswered: (d) =>
    `${d.player} ${d.accepted ? "accepts" : "declines"} the scenario proposed for battle ${d.battle}${d.accepted ? "" : ": it will be rolled"}`,
  ScenarioChosen: (d) =>
    `${d.player} chooses ${scenarioName(d.scenario)}${d.target ? ` (target: ${d.target.unitType} of ${d.target.army})` : ""} for battle ${d.battle}`,
  ScenarioRolled: (d) => `battle ${d.battle}: the scenario rolled is ${scenarioName(d.scenario)} (d7: ${dice(d.dice)})`,
  BattleConditionsRolled: (d) =>
    `battle ${d.battle}: conditions rolled (${dice(d.dice)}): ${conditionsSummary(d.conditions)}`,
  EnclosedAgreed: (d) => `${d.player} agrees that battle ${d.battle} is fought enclosed`,
  BattleTurnEnded: (d) => `${d.player} ends battle turn ${d.battleTurn} of battle ${d.battle}`,
  GravityFluxRolled: (d) =>
    `battle ${d.battle}: gravity flux at the End phase of battle turn ${d.battleTurn} (${dice(d.dice)}): ${d.level} gravity${d.changed ? ", changed: a Blast marker on every formation" : ", unchanged"}`,
  WhiteOutRolled: (d) =>
    `battle ${d.battle}: blizzard at the start of battle turn ${d.battleTurn} (${dice(d.dice)}): ${d.whiteOut ? "a white-out: line of sight 15 cm, -1 to hit in firefights, all terrain but roads and buildings dangerous" : "no white-out"}`,
  HitsAllocated: (d) =>
    `${d.player} allocates volley ${d.volley} of battle ${d.battle}: ${d.hits.length} hits on a formation of ${d.units.length} units${d.unallocated.length ? `, ${d.unallocated.length} with no unit to take them` : ""}`,
  SavesRolled: (d) =>
    `battle ${d.battle}: saves for volley ${d.volley} (${dice(d.dice)}): ${d.destroyed.length ? `${d.destroyed.join(", ")} destroyed` : "every unit saved"}`,
  BarrageCalled: (d) =>
    `${d.player} calls barrage ${d.barrage} in battle ${d.battle}: ${d.barragePoints} barrage points on ${d.models} models, ${d.toHit}+ to hit`,
  BarrageRolled: (d) => `battle ${d.battle}: barrage ${d.barrage} rolls ${dice(d.dice)}: ${d.hits} hits`,
};

/** One event in players' words (an event as stored, or as a viewer may see it: viewEvent). */
export function describeEvent(event: ViewedDomainEvent): string {
  return (describers[event.type] as (data: unknown) => string)(event.data);
}

/** One line of `epicwar log`: give it the viewer's view of the event (viewedContent(viewEvent(...))). */
export function logLine(event: ViewedDomainEvent & Pick<CurrentEvent, "seq" | "at" | "actor">): string {
  return `#${String(event.seq).padEnd(5)} ${event.at}  ${event.actor.padEnd(10)} ${event.type.padEnd(20)} ${describeEvent(event)}`;
}

/**
 * The event feed: prints each event as it is written, as the viewer may see it. It keeps the campaign's state by folding
 * the events it is given, from `start` (the state before the first of them); given events that do not follow on, it
 * no longer knows the state and judges with an empty one, which hides every secret of the other side.
 */
export function eventFeed(
  print: (line: string) => void,
  viewer: Viewer,
  start: CampaignState = initialState,
): (events: StoredEvent[]) => void {
  let state: CampaignState | undefined = start;
  return (events) => {
    if (events.length === 0) return;
    const current = events.map(toCurrent);
    // Folded from copies: the fold may change objects of its events in place (see logViewContext).
    state =
      state !== undefined && current[0]?.seq === state.seq + 1 ? evolveAll(state, structuredClone(current)) : undefined;
    const context = { state: state ?? initialState };
    for (const event of events) print(feedLine(viewedContent(viewEvent(event, viewer, context))));
  };
}

/** One line of the event feed: the event's seq and what it says, as the viewer may see it. */
export function feedLine(event: ViewedDomainEvent & Pick<CurrentEvent, "seq">): string {
  return `#${event.seq} ${describeEvent(event)}`;
}
