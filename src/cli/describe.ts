import type { BattleResult } from "../../events/common.js";
import { toCurrent, type CurrentEvent, type EventType, type StoredEvent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { sq } from "../rules/refusal.js";
import { viewEvent, viewedContent, type Viewer, type ViewedData, type ViewedDomainEvent } from "../views.js";

/** One describer per event type, given the data as a viewer may see it: a secret field may be HIDDEN. */
type Describers = { [T in EventType]: (data: ViewedData<T>) => string };

export const ORDER_NAMES = { firstFire: "First Fire", advance: "Advance", charge: "Charge", fortify: "Fortify" } as const;
const n = (value: number) => value.toLocaleString("en");
const short = (hex: string) => hex.slice(0, 12);
const units = (counts: Record<string, number>) => {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return `${total} unit${total === 1 ? "" : "s"}`;
};
const result = (r: BattleResult) =>
  `${r.outcome === "draw" ? "a draw" : `${r.outcome} wins`}, VPs ${r.attacker.vp}-${r.defender.vp}`;

const describers: Describers = {
  CampaignCreated: (d) =>
    `campaign "${d.name}" created: ${d.map.width}x${d.map.height} map, ${d.players.map((p) => `${p.name} (${p.id}, ${p.baseLine})`).join(" vs ")}, ` +
    `M ${n(d.force.maxArmyPoints)} x N ${d.force.armies}`,
  ArmyRegistered: (d) => `${d.player} registered army ${d.army} "${d.name}" (${d.formations.length} formations)`,
  HomeBasePlaced: (d) => `${d.player} placed its home base at ${sq(d.at)}`,
  ObjectivePlaced: (d) => `${d.placedBy} placed objective ${d.objective} at ${sq(d.at)}`,
  ArmyDeployed: (d) => `army ${d.army} deployed at ${sq(d.at)}`,
  CampaignStarted: (d) => `set-up complete: turn ${d.turn} begins`,
  TurnStarted: (d) => `turn ${d.turn} begins; the host commits to its dice seed ${short(d.hostSeedHash)}`,
  PlayerSeedGiven: (d) => `${d.player} gives its dice seed for turn ${d.turn}`,
  InitiativeRolled: (d) =>
    `initiative: ${d.rounds.map((round) => Object.entries(round).map(([p, v]) => `${p} ${v}`).join(" v ")).join(", reroll: ")}; ${d.winner} wins`,
  FirstPlayerChosen: (d) => `${d.chosenBy} chooses ${d.first} to activate first`,
  ArmyActivated: (d) => `${d.player} activates ${d.army}${d.engaged ? " (attacked before its turn: it may not move)" : ""} with a hidden order`,
  ArmyMoved: (d) => `${d.army} moves ${sq(d.from)}->${d.path.map(sq).join("->")}`,
  ObjectiveCaptured: (d) =>
    `${d.by} captures ${d.kind === "homeBase" ? `${d.objective}'s home base` : `objective ${d.objective}`} with ${d.army}${d.how === "battle" ? " by winning the battle there" : ""}`,
  BattleStarted: (d) => `battle ${d.battle} at ${sq(d.at)}: ${d.attacker} attacks ${d.defender}`,
  OrderRevealed: (d) => `${d.army}'s order was ${ORDER_NAMES[d.order]}`,
  RevealRejected: (d) => `CHEATING: ${d.player}'s reveal of ${ORDER_NAMES[d.order]} for ${d.army} does not match its commitment`,
  OrderViolated: (d) => `CHEATING (${d.rule}): ${d.army} on ${ORDER_NAMES[d.order]}: ${d.detail} (event #${d.evidenceSeq})`,
  ActionPhaseEnded: (d) => `all orders are in${d.withheld.length ? `; never revealed: ${d.withheld.join(", ")}` : ""}; the Battle phase begins`,
  BattleResultReported: (d) => `${d.by} reports battle ${d.battle}: ${result(d.result)}`,
  BattleResultRejected: (d) => `${d.by} rejects the reported result of battle ${d.battle}`,
  BattleResolved: (d) =>
    `battle ${d.battle}: ${d.winner ? `${d.winner} wins${d.overwhelming ? " overwhelmingly" : ""}` : "a draw"} (VPs ${d.result.attacker.vp}-${d.result.defender.vp}); CVPs ${Object.entries(d.cvps).map(([p, c]) => `${p} +${c}`).join(", ")}`,
  ArmyRouted: (d) => `${d.army} is routed: ${units(d.units)} go In Transit`,
  ArmyWithdrew: (d) => `${d.army} falls back to ${sq(d.to)}`,
  ArmyOccupied: (d) => `${d.army} occupies ${sq(d.at)}`,
  BattlePhaseEnded: (d) => `every battle of turn ${d.turn} is fought; the End phase begins`,
  TransitArrived: (d) => `${units(d.units)} of ${d.player} sent In Transit in turn ${d.sentTurn} join the Reserves`,
  FormationsBrokenDown: (d) => `${d.player} breaks down ${d.formations.join(", ")} of ${d.army}: ${units(d.units)} go In Transit`,
  ArmyDisbanded: (d) => `${d.player} disbands ${d.army}: ${units(d.units)} go In Transit`,
  ArmyRaised: (d) => `${d.player} raises a new army ${d.army} "${d.name}" from the Reserves at ${sq(d.at)}`,
  FormationReinforced: (d) => `${d.player} brings ${d.formation} of ${d.army} back to full strength (${units(d.units)} from the Reserves)`,
  FormationReplaced: (d) => `${d.player} replaces the lost ${d.replaced} of ${d.army} with ${d.formation.formation}`,
  FormationsTraded: (d) => `${d.player} trades in ${d.tradedIn.join(", ")} (${n(d.points)} points) for ${d.bought.join(", ") || "nothing"}`,
  EndPhaseFinished: (d) => `${d.player} is done with the End phase`,
  DefencesBuilt: (d) => `${d.army} builds ${n(d.points)} points of defences at ${sq(d.at)}`,
  TurnEnded: (d) => `turn ${d.turn} ends: CVPs ${Object.entries(d.cvps).map(([p, c]) => `${p} ${c}`).join(", ")}; the host reveals its dice seed ${short(d.hostSeed)}`,
  CampaignFinished: (d) => (d.winner ? `${d.winner} wins the campaign` : "the campaign ends in a draw") + ` at the end of turn ${d.turn}`,
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
export function eventFeed(print: (line: string) => void, viewer: Viewer, start: CampaignState = initialState): (events: StoredEvent[]) => void {
  let state: CampaignState | undefined = start;
  return (events) => {
    if (events.length === 0) return;
    const current = events.map(toCurrent);
    // Folded from copies: the fold may change objects of its events in place (see logViewContext).
    state = state !== undefined && current[0]?.seq === state.seq + 1 ? evolveAll(state, structuredClone(current)) : undefined;
    const context = { state: state ?? initialState };
    for (const event of events) {
      const view = viewedContent(viewEvent(event, viewer, context));
      print(`#${view.seq} ${describeEvent(view)}`);
    }
  };
}
