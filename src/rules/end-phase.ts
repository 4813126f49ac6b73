import { HOST } from "../../events/common.js";
import { reseeding } from "../../projections/turns.js";
import type { RosterFormation } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import { cvpTotals } from "../../projections/derived.js";
import { rowsFromEdge, sameSquare } from "../../projections/grid.js";
import type { ArmyState, CampaignState, TurnState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { seedCommitment } from "../crypto/commitments.js";
import { requireAtHomeBase, requireHomeBaseHeld } from "./home-base.js";
import { predict } from "./phases.js";
import { pts, refuseField, refuseRule, sq } from "./refusal.js";
import {
  describeUnits,
  formationUnits,
  fullStrength,
  fullStrengthOf,
  hasUnits,
  isEmpty,
  ledgerOf,
  pointsOf,
  requireInReserves,
  requireWithinCeiling,
  shortfall,
} from "./reserves.js";
import { requireEndPhase, requireEndPhasePlayer, requireOwnArmy, requireSetup } from "./guards.js";
import {
  commanderOfDisbandedArmy,
  requireCommandCovers,
  requireEveryArmyLed,
  spareCommanderFor,
} from "./commanders.js";
import { requireFreeSquare, requireNewArmy } from "./new-army.js";
import { requireUndamagedForTrade } from "./damaged-titans.js";
import { attachNew, carriedBy, reattachments } from "./attachments.js";
import { isAttachable, isCompany } from "../../projections/attachments.js";
import { defencesBuilt, fortifyBuilds } from "./fortify.js";

/**
 * The End phase (E1-E7): breaking down and disbanding armies that have fought (E5), using the Reserves (E6 a-d),
 * each player finishing, and the host ending the turn: defences built (E3), CVPs totalled and victory checked (E2).
 */

/** E6: never in the first turn (nobody starts with Reserves). */
function requireReservesTurn(state: CampaignState): void {
  if (state.turn <= 1) refuseRule("E6", "the Reserves are never used in the first turn");
}

function requireFought(army: ArmyState): void {
  if (army.battles < 1)
    refuseRule("E5", `army "${army.id}" has not fought a battle: only armies that have fought may be broken down`);
}

function requireRosterFormation(army: ArmyState, id: string, field: string): RosterFormation {
  const formation = army.formations.find((f) => f.id === id);
  if (!formation) refuseField(field, `army "${army.id}" has no formation "${id}"`);
  return formation;
}

const quoted = (formations: readonly RosterFormation[]) => formations.map((f) => `"${f.id}"`).join(", ");

// ---------- E5 ----------

export function decideBreakDown(state: CampaignState, command: CommandOf<"BreakDown">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E5", "formations are broken down");
  const army = requireOwnArmy(state, player, command.army, "E5");
  requireFought(army);

  const named = new Set<string>();
  const brokenDown = command.formations.map((id, i) => {
    if (named.has(id)) refuseField(`formations[${i}]`, `formation "${id}" is listed twice`);
    named.add(id);
    return requireRosterFormation(army, id, `formations[${i}]`);
  });
  const kept = army.formations.filter((f) => !named.has(f.id));
  if (!kept.some(hasUnits)) {
    refuseRule(
      "E5",
      `breaking down ${command.formations.join(", ")} would leave army "${army.id}" with no units: disband the whole army instead (DisbandArmy)`,
    );
  }

  const brokenDownData = {
    turn: state.turn,
    army: army.id,
    player: player.id,
    formations: brokenDown.map((f) => f.id),
    units: formationUnits(brokenDown),
  };
  const leaving = [...named];

  const companies = brokenDown.filter((f) => isCompany(setup.catalogue, f));
  // A company already wiped out holds nothing together any more (seed 000's note on attrition): its record may go.
  const liveCompanies = companies.filter(hasUnits);
  const carrying = liveCompanies.filter((company) => carriedBy(kept, company.id).length > 0);
  const { replacement } = command;
  if (!replacement) {
    const company = carrying[0];
    if (company)
      refuseRule(
        "E5",
        `the company "${company.id}" of army "${army.id}" has ${quoted(carriedBy(kept, company.id))} attached: ` +
          "it may be broken down only if a full-strength company from the Reserves replaces it (name it as the replacement), or together with them",
      );
    const reattached = reattachments(setup.catalogue, kept, leaving);
    return [{ type: "FormationsBrokenDown", data: { ...brokenDownData, ...(reattached && { reattached }) } }];
  }
  if (companies.length === 0)
    refuseField(
      "replacement",
      "a replacement takes the place of a broken-down company, and no company is broken down here",
    );
  if (carrying.length > 1)
    refuseRule(
      "E5",
      `companies ${carrying.map((c) => `"${c.id}"`).join(" and ")} both have formations attached, and one replacement takes the place of one company: break them down one at a time`,
    );
  requireReservesTurn(state);
  const entry = setup.catalogue.formations[replacement.formation];
  if (!entry) refuseRule("S8", `formation "${replacement.formation}" is not in the campaign catalogue`);
  if (entry.kind !== "company")
    refuseRule(
      "E5",
      `a broken-down company is replaced by a company; "${replacement.formation}" is a ${entry.kind} formation`,
    );
  if (kept.some((f) => f.id === replacement.id))
    refuseField("replacement.id", `army "${army.id}" already has a formation "${replacement.id}"`);
  const units = fullStrength(setup.catalogue, replacement.formation);
  requireInReserves(ledgerOf(state, player.id), units, `a full-strength "${replacement.formation}"`);
  const formation = { id: replacement.id, formation: replacement.formation, units };
  const replaced = (carrying[0] ?? liveCompanies[0] ?? companies[0]!).id;
  requireWithinCeiling(setup, army, [...kept, formation], `replacing "${replaced}" with "${replacement.formation}"`);
  requireCommandCovers(setup, army, [...kept, formation], `replacing "${replaced}" with "${replacement.formation}"`);
  const reattached = reattachments(setup.catalogue, [...kept, formation], leaving, { replaced, by: formation.id });
  return [
    { type: "FormationsBrokenDown", data: { ...brokenDownData, ...(reattached && { reattached }) } },
    {
      type: "FormationReplaced",
      data: { turn: state.turn, army: army.id, player: player.id, replaced, formation, units },
    },
  ];
}

export function decideDisbandArmy(state: CampaignState, command: CommandOf<"DisbandArmy">): DomainEvent[] {
  requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E5", "armies are disbanded");
  const army = requireOwnArmy(state, player, command.army, "E5");
  requireFought(army);
  return [
    {
      type: "ArmyDisbanded",
      data: { turn: state.turn, army: army.id, player: player.id, units: formationUnits(army.formations) },
    },
    ...commanderOfDisbandedArmy(state, army),
  ];
}

// ---------- E6 ----------

export function decideRaiseArmy(state: CampaignState, command: CommandOf<"RaiseArmy">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E6", "the Reserves are used");
  requireReservesTurn(state);
  const formations = requireNewArmy(state, setup, command);

  const homeBase = state.homeBases[player.id];
  const onHomeBase = homeBase !== undefined && sameSquare(homeBase.at, command.at);
  if (advancedRule(setup.options, "homeBase")) {
    requireHomeBaseHeld(state, player.id, "raise new armies");
    requireAtHomeBase(state, player.id, command.at, `new army "${command.army}"`);
  } else if (!onHomeBase && rowsFromEdge(setup.map, player.baseLine, command.at) !== 0) {
    refuseRule(
      "S7",
      `new armies start on their owner's base line (${player.baseLine}) or home base; ${sq(command.at)} is neither`,
    );
  }
  requireFreeSquare(state, player.id, command.at);

  const units = formationUnits(formations);
  requireInReserves(ledgerOf(state, player.id), units, `army "${command.army}"`);
  const ledBy = spareCommanderFor(
    state,
    setup,
    { army: command.army, player: player.id, formations },
    command.commander,
  );
  return [
    {
      type: "ArmyRaised",
      data: {
        turn: state.turn,
        army: command.army,
        player: player.id,
        name: command.name,
        formations,
        commander: command.commander,
        at: command.at,
        units,
      },
    },
    ...ledBy,
  ];
}

export function decideReinforceFormation(
  state: CampaignState,
  command: CommandOf<"ReinforceFormation">,
): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E6", "the Reserves are used");
  requireReservesTurn(state);
  const army = requireOwnArmy(state, player, command.army, "E6");
  const formation = requireRosterFormation(army, command.formation, "formation");
  if (!hasUnits(formation)) {
    refuseRule(
      "E6",
      `formation "${formation.id}" of army "${army.id}" was wiped out: replace it with a different formation instead (ReplaceFormation)`,
    );
  }
  const missing = shortfall(formation.units, fullStrength(setup.catalogue, formation.formation));
  if (isEmpty(missing)) refuseRule("E6", `formation "${formation.id}" of army "${army.id}" is at full strength`);
  requireInReserves(
    ledgerOf(state, player.id),
    missing,
    `bringing "${formation.id}" of army "${army.id}" back to full strength`,
  );
  return [
    {
      type: "FormationReinforced",
      data: { turn: state.turn, army: army.id, player: player.id, formation: formation.id, units: missing },
    },
  ];
}

export function decideReplaceFormation(state: CampaignState, command: CommandOf<"ReplaceFormation">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E6", "the Reserves are used");
  requireReservesTurn(state);
  const army = requireOwnArmy(state, player, command.army, "E6");
  const lost = requireRosterFormation(army, command.formation, "formation");
  if (hasUnits(lost)) {
    refuseRule(
      "E6",
      `formation "${lost.id}" of army "${army.id}" still has ${describeUnits(lost.units)}: only a wiped-out formation may be replaced (a depleted one is reinforced)`,
    );
  }
  const units = fullStrength(setup.catalogue, command.with.formation);
  if (command.with.formation === lost.formation) {
    refuseRule(
      "E6",
      `a wiped-out formation is replaced by a different formation; "${lost.id}" was already a "${lost.formation}"`,
    );
  }
  if (army.formations.some((f) => f.id === command.with.id))
    refuseField("with.id", `army "${army.id}" already has a formation "${command.with.id}"`);
  const others = army.formations.filter((f) => f.id !== lost.id);
  // A formation that takes an attached one's place joins the same company, while it has units, unless the command
  // names another (E5).
  const sameCompany = others.find((f) => f.id === lost.attachedTo && hasUnits(f))?.id;
  const inherits = isAttachable(setup.catalogue, lost) && isAttachable(setup.catalogue, command.with);
  const joins = command.with.attachedTo ?? (inherits ? sameCompany : undefined);
  const entry = { id: command.with.id, formation: command.with.formation, units };
  const formation = attachNew(
    setup.catalogue,
    [joins === undefined ? {} : { attachedTo: joins }],
    [entry],
    [...others, entry],
    () => "with.attachedTo",
  )[0]!;
  const replacing = `replacing "${lost.id}" with "${command.with.formation}"`;
  requireWithinCeiling(setup, army, [...others, formation], replacing);
  requireCommandCovers(setup, army, [...others, formation], replacing);
  const replacement = isCompany(setup.catalogue, formation) ? { replaced: lost.id, by: formation.id } : undefined;
  const reattached = reattachments(setup.catalogue, [...others, formation], [lost.id], replacement);
  requireInReserves(ledgerOf(state, player.id), units, `a full-strength "${command.with.formation}"`);
  return [
    {
      type: "FormationReplaced",
      data: {
        turn: state.turn,
        army: army.id,
        player: player.id,
        replaced: lost.id,
        formation,
        units,
        ...(reattached && { reattached }),
      },
    },
  ];
}

export function decideTradeFormations(state: CampaignState, command: CommandOf<"TradeFormations">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "E6", "the Reserves are used");
  requireReservesTurn(state);
  const unitsOut = fullStrengthOf(setup.catalogue, command.tradeIn);
  const unitsIn = fullStrengthOf(setup.catalogue, command.buy);
  requireInReserves(
    ledgerOf(state, player.id),
    unitsOut,
    `trading in ${command.tradeIn.map((f) => `"${f}"`).join(", ")} at full strength`,
  );
  requireUndamagedForTrade(ledgerOf(state, player.id), unitsOut);
  const points = pointsOf(setup.catalogue, command.tradeIn);
  const cost = pointsOf(setup.catalogue, command.buy);
  if (cost > points) {
    refuseRule(
      "E6",
      `${command.buy.map((f) => `"${f}"`).join(", ")} cost ${pts(cost)} points, more than the ${pts(points)} traded in`,
    );
  }
  return [
    {
      type: "FormationsTraded",
      data: {
        turn: state.turn,
        player: player.id,
        tradedIn: command.tradeIn,
        bought: command.buy,
        unitsOut,
        unitsIn,
        points,
      },
    },
  ];
}

// ---------- finishing ----------

export function decideFinishEndPhase(state: CampaignState, command: CommandOf<"FinishEndPhase">): DomainEvent[] {
  requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "T1", "a player finishes its End phase");
  requireEveryArmyLed(state, player.id);
  return [{ type: "EndPhaseFinished", data: { turn: state.turn, player: player.id } }];
}

/**
 * E3 with the `atEndPhase` option: every army whose revealed order this turn was Fortify builds when the turn ends, if
 * it still stands where it fortified. By default (the ruling) it built with its reveal (reveal.ts), so nothing here.
 */
function defencesAtEndPhase(state: CampaignState, turn: TurnState): DomainEvent[] {
  if (fortifyBuilds(state.setup!) !== "atEndPhase") return [];
  return Object.values(turn.activations)
    .filter((activation) => activation.order === "fortify")
    .sort((a, b) => a.seq - b.seq)
    .flatMap((activation) => defencesBuilt(state, activation));
}

export function decideEndTurn(state: CampaignState, command: CommandOf<"EndTurn">): DomainEvent[] {
  const setup = requireSetup(state);
  if (command.actor !== HOST) refuseField("actor", `only the host may do this, not "${command.actor}"`);
  const turn = requireEndPhase(state, "the turn ends");
  const waiting = setup.players.filter((p) => !turn.endPhaseDone.includes(p.id));
  if (waiting.length > 0)
    refuseRule(
      "T1",
      `${waiting.map((p) => p.id).join(" and ")} ${waiting.length > 1 ? "have" : "has"} not finished the End phase of turn ${state.turn}`,
    );
  // On a branch the seed revealed is the branch's own: the parent's, void here, stays on the parent line.
  if (reseeding(turn))
    refuseRule("D1", `turn ${state.turn}'s seeds are being made afresh on this branch: the host reseeds it first`);
  if (seedCommitment(command.hostSeed) !== turn.hostSeedHash)
    refuseRule("D1", "the host's seed does not match its commitment");

  const events: DomainEvent[] = defencesAtEndPhase(state, turn);
  const cvps = cvpTotals(predict(state, events));
  events.push({ type: "TurnEnded", data: { turn: state.turn, hostSeed: command.hostSeed, cvps } });
  const reached = setup.players.filter((p) => (cvps[p.id] ?? 0) >= setup.cvpTarget);
  if (reached.length > 0) {
    events.push({
      type: "CampaignFinished",
      data: { turn: state.turn, winner: reached.length === 1 ? reached[0]!.id : null, cvps },
    });
  }
  return events;
}
