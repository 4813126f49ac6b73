import { isDraft, original, produce, type Draft } from "immer";
import type { CurrentEvent, DomainEvent, EventData } from "../events/index.js";
import { HOST } from "../events/common.js";
import { addUnits, armyPoints, removeUnits } from "./units.js";
import { reattach } from "./attachments.js";
import { awardTable, campaignForce, cvpTarget, vpTarget } from "./formulas.js";
import { seedPrint } from "./seed-prints.js";
import { sameSquare, squareKey, terrainAt } from "./grid.js";
import { newBattleKit } from "./battle-kit.js";
import { battleKitHandlers } from "./battle-kit-reducers.js";
import { emptyLedger, initialState, type ArmyState, type CampaignSetup, type CampaignState } from "./state.js";
import { armyMoveRate } from "./mobility.js";
import { battleIndex, battlesOfTurn } from "./battle-index.js";
import { appointCommander, relieveCommander, standDownCommander } from "./commanders.js";
import { supportFundAtStart } from "./support.js";
import {
  addDamagedTitans,
  carryTitanDamage,
  forgetDestroyedTitan,
  repairReserveTitan,
  repairTitanDamage,
  takeDamagedTitans,
  titansLeavingWithDamage,
} from "./war-chest.js";
import { scoutingOf } from "./scouting.js";
import { armySizeStated, scoutingAnswered, scoutingDeclared, scoutingRolled } from "./scouting-reducers.js";

type Handlers = { [T in DomainEvent["type"]]: (state: Draft<CampaignState>, data: EventData<T>, seq: number) => void };

/**
 * The campaign's set-up, which no event changes once CampaignCreated has set it: read from the state the fold began
 * with where it was there already, so that reading the catalogue does not draft it (immer copies what is read through
 * a draft).
 */
function setupOf(state: Draft<CampaignState>): CampaignSetup {
  return (isDraft(state) ? original(state)!.setup : null) ?? (state.setup as CampaignSetup);
}

/** Recomputes the values S5 and S8 derive from the roster. */
function rosterChanged(state: Draft<CampaignState>, army: Draft<ArmyState>): void {
  army.points = armyPoints(army.formations, setupOf(state).catalogue);
  army.moveRate = armyMoveRate(army.points, army.formations, setupOf(state));
}

/** A new army on the roster (S8, E6a), its points and move rate derived from its formations. */
function enlist(
  state: Draft<CampaignState>,
  data: Pick<ArmyState, "player" | "name" | "formations" | "commander"> & { army: string },
  at: ArmyState["at"],
  sinceTurn: number,
): void {
  const points = armyPoints(data.formations, setupOf(state).catalogue);
  state.armies[data.army] = {
    id: data.army,
    player: data.player,
    name: data.name,
    formations: data.formations,
    commander: data.commander,
    points,
    moveRate: armyMoveRate(points, data.formations, setupOf(state)),
    at,
    status: "active",
    battles: 0,
    sinceTurn,
  };
}

function leaveMap(
  state: Draft<CampaignState>,
  armyId: string,
  status: ArmyState["status"],
  units: Record<string, number>,
  turn: number,
): void {
  const army = state.armies[armyId]!;
  army.at = null;
  army.status = status;
  const damagedTitans = titansLeavingWithDamage(army, army.formations, setupOf(state).catalogue);
  for (const formation of army.formations) for (const type of Object.keys(formation.units)) formation.units[type] = 0;
  rosterChanged(state, army);
  state.ledgers[army.player]!.inTransit.push({ turn, units, ...(damagedTitans && { damagedTitans }) });
}

const handlers: Handlers = {
  CampaignCreated(state, data) {
    const total = campaignForce(data.force.maxArmyPoints, data.force.armies);
    state.campaign = data.campaign;
    state.status = "setup";
    state.phase = "setup";
    state.setup = {
      name: data.name,
      map: data.map,
      players: data.players,
      force: { ...data.force, total },
      options: data.options,
      catalogue: data.catalogue,
      cvpTarget: cvpTarget(total),
      awards: awardTable(total),
    };
    for (const player of data.players) state.ledgers[player.id] = emptyLedger();
    const supportFund = supportFundAtStart(data.options, total);
    for (const player of data.players) state.ledgers[player.id]!.supportFund = supportFund;
  },
  ArmyRegistered(state, data) {
    enlist(state, data, null, 1);
  },
  HomeBasePlaced(state, data) {
    state.homeBases[data.player] = { player: data.player, at: data.at, heldBy: data.player };
  },
  ObjectivePlaced(state, data) {
    state.objectives[data.objective] = { id: data.objective, placedBy: data.placedBy, at: data.at, heldBy: null };
  },
  ArmyDeployed(state, data) {
    state.armies[data.army]!.at = data.at;
  },
  CampaignStarted(state, data) {
    state.status = "active";
    state.turn = data.turn;
    state.phase = "action";
  },
  PlayerSeedCommitted(state, data) {
    state.seedCommitments[data.player] = data.seedHash;
  },
  TurnStarted(state, data) {
    state.hostSeedPrints += seedPrint(data.hostSeedHash);
    state.turn = data.turn;
    state.phase = "action";
    // The turn before's battles are settled (projections/settled-battles.ts keeps them).
    state.battles = {};
    const playerSeedHashes = state.seedCommitments;
    state.seedCommitments = {};
    state.turnState = {
      hostSeedHash: data.hostSeedHash,
      hostSeed: null,
      playerSeedHashes,
      playerSeeds: {},
      diceUsed: 0,
      initiativeWinner: null,
      first: null,
      lastActivator: null,
      activations: {},
      endPhaseDone: [],
    };
  },
  PlayerSeedGiven(state, data) {
    state.turnState!.playerSeeds[data.player] = data.seed;
  },
  InitiativeRolled(state, data) {
    const turn = state.turnState!;
    turn.diceUsed = data.firstDie + data.rounds.length * Object.keys(data.rounds[0]!).length;
    turn.initiativeWinner = data.winner;
  },
  FirstPlayerChosen(state, data) {
    state.turnState!.first = data.first;
  },
  ArmyActivated(state, data, seq) {
    const turn = state.turnState!;
    const army = state.armies[data.army]!;
    turn.activations[data.army] = {
      army: data.army,
      player: data.player,
      seq,
      commitment: data.commitment,
      rate: data.rate,
      engaged: data.engaged,
      stacked: data.stacked,
      from: army.at,
      path: [],
      moveSeq: null,
      order: null,
    };
    if (!data.engaged) turn.lastActivator = data.player;
  },
  ArmyMoved(state, data, seq) {
    const activation = state.turnState!.activations[data.army]!;
    activation.path = data.path;
    activation.moveSeq = seq;
    state.armies[data.army]!.at = data.path[data.path.length - 1]!;
  },
  ObjectiveCaptured(state, data) {
    if (data.kind === "homeBase") state.homeBases[data.objective]!.heldBy = data.by;
    else state.objectives[data.objective]!.heldBy = data.by;
  },
  CityCaptured(state, data) {
    state.cities[squareKey(data.at)] = data.by;
  },
  BattleStarted(state, data) {
    const attacker = state.armies[data.attacker]!;
    const defender = state.armies[data.defender]!;
    // A3, T5: an order already revealed this turn (for a scouting's +2, say) is revealed for this battle too, and so
    // is the First Fire an army not yet activated committed to for a scouting's +2: it is public.
    const revealed = (army: string) => {
      const activation = state.turnState?.activations[army];
      const pledge = state.turnState?.scouting?.pledges[army];
      return activation ? activation.order : pledge && !pledge.separateReveal ? pledge.order : null;
    };
    const averagePoints = (attacker.points + defender.points) / 2;
    state.lastBattleTurn = Math.max(state.lastBattleTurn, data.turn);
    state.battles[data.battle] = {
      id: data.battle,
      turn: data.turn,
      index: battleIndex(state, data.turn),
      at: data.at,
      attacker: {
        army: attacker.id,
        player: attacker.player,
        points: attacker.points,
        order: revealed(attacker.id),
        from: data.attackerFrom,
      },
      defender: { army: defender.id, player: defender.player, points: defender.points, order: revealed(defender.id) },
      averagePoints,
      vpTarget: vpTarget(averagePoints, setupOf(state).options.vpTable),
      defences: state.defences[squareKey(data.at)] ?? 0,
      status: "pending",
      report: null,
      result: null,
      winner: null,
      overwhelming: false,
    };
    const kit = setupOf(state).options.battleKit;
    if (kit) {
      const city = terrainAt(setupOf(state).map, data.at) === "city";
      state.battles[data.battle]!.kit = newBattleKit(city && kit.enclosedCities === "always");
    }
    const scouted = scoutingOf(state.turnState, attacker.id, defender.id);
    if (scouted?.band) state.battles[data.battle]!.scouting = scouted.band;
  },
  OrderRevealed(state, data) {
    state.turnState!.activations[data.army]!.order = data.order;
    for (const battle of battlesOfTurn(state, data.turn)) {
      if (battle.attacker.army === data.army) battle.attacker.order = data.order;
      if (battle.defender.army === data.army) battle.defender.order = data.order;
    }
  },
  RevealRejected(state, data, seq) {
    const activation = state.turnState!.activations[data.army];
    state.violations.push({
      seq,
      evidenceSeq: activation?.seq ?? null,
      turn: data.turn,
      army: data.army,
      player: data.player,
      rule: "T5",
      detail: `reveal of ${data.order} does not match the commitment`,
    });
  },
  OrderViolated(state, data, seq) {
    state.violations.push({
      seq,
      evidenceSeq: data.evidenceSeq,
      turn: data.turn,
      army: data.army,
      player: data.player,
      rule: data.rule,
      detail: data.detail,
    });
  },
  StallClaimed(state, data, seq) {
    state.turnState!.stallClaim = { seq, by: data.by, owed: data.owed };
  },
  ActionDeadlineSet(state, data) {
    state.turnState!.actionDeadline = data.deadline;
  },
  // Who the phase waited on is for people to read: the ActionPhaseEnded that follows it changes the state.
  ActionDeadlineEnforced() {},
  CampaignPaused(state, data, seq) {
    state.paused = { seq, ...(data.reason === undefined ? {} : { reason: data.reason }) };
  },
  CampaignResumed(state) {
    delete state.paused;
  },
  SeatKeyRegistered(state, data, seq) {
    const keys = (state.seatKeys ??= {});
    const replacements = keys[data.party]?.replacements ?? [];
    keys[data.party] = {
      publicKey: data.publicKey,
      seq,
      replacements: data.replaces === null ? replacements : [...replacements, { seq, turn: state.turn }],
    };
  },
  ActionPhaseEnded(state, data, seq) {
    state.phase = "battle";
    for (const army of data.withheld) {
      const activation = state.turnState!.activations[army];
      if (activation) {
        state.violations.push({
          seq,
          evidenceSeq: activation.seq,
          turn: data.turn,
          army,
          player: activation.player,
          rule: "T5",
          detail: "order never revealed",
        });
        continue;
      }
      // An attacked army whose order was never given, when the host closed a claimed stall: the claim shows it owed.
      const claim = state.turnState!.stallClaim;
      const player = state.armies[army]?.player;
      if (player)
        state.violations.push({
          seq,
          evidenceSeq: claim?.seq ?? null,
          turn: data.turn,
          army,
          player,
          rule: "T5",
          detail: "order never given",
        });
    }
  },
  BattleResultReported(state, data) {
    const battle = state.battles[data.battle]!;
    battle.status = "reported";
    battle.report = { by: data.by, result: data.result };
  },
  BattleResultRejected(state, data) {
    const battle = state.battles[data.battle]!;
    battle.status = "pending";
    battle.report = null;
  },
  BattleResolved(state, data) {
    const battle = state.battles[data.battle]!;
    battle.status = "resolved";
    battle.report = null;
    battle.result = data.result;
    battle.winner = data.winner;
    battle.overwhelming = data.overwhelming;
    if (data.resolvedBy) {
      battle.resolvedBy = data.resolvedBy;
      state.turnState!.diceUsed = data.firstDie! + data.dice!.length;
    }
    for (const [side, result] of [
      [battle.attacker, data.result.attacker],
      [battle.defender, data.result.defender],
    ] as const) {
      const army = state.armies[side.army]!;
      army.battles += 1;
      for (const [formationId, losses] of Object.entries(result.losses)) {
        const formation = army.formations.find((f) => f.id === formationId)!;
        removeUnits(formation.units, losses);
      }
      rosterChanged(state, army);
    }
    for (const [player, cvps] of Object.entries(data.cvps)) state.ledgers[player]!.battleCvps += cvps;
  },
  ArmyRouted(state, data) {
    leaveMap(state, data.army, "routed", data.units, data.turn);
  },
  ArmyWithdrew(state, data) {
    state.armies[data.army]!.at = data.to;
  },
  ArmyOccupied(state, data) {
    state.armies[data.army]!.at = data.at;
  },
  BattlePhaseEnded(state) {
    state.phase = "end";
  },
  TransitArrived(state, data) {
    const ledger = state.ledgers[data.player]!;
    for (const batch of ledger.inTransit)
      if (batch.turn === data.sentTurn) addDamagedTitans(ledger, batch.damagedTitans);
    ledger.inTransit = ledger.inTransit.filter((batch) => batch.turn !== data.sentTurn);
    addUnits(ledger.reserves, data.units);
  },
  FormationsBrokenDown(state, data) {
    const army = state.armies[data.army]!;
    const leaving = army.formations.filter((f) => data.formations.includes(f.id));
    const damagedTitans = titansLeavingWithDamage(army, leaving, setupOf(state).catalogue);
    army.formations = army.formations.filter((f) => !data.formations.includes(f.id));
    reattach(army.formations, data.formations, data.reattached);
    rosterChanged(state, army);
    state.ledgers[data.player]!.inTransit.push({
      turn: data.turn,
      units: data.units,
      ...(damagedTitans && { damagedTitans }),
    });
  },
  ArmyDisbanded(state, data) {
    leaveMap(state, data.army, "disbanded", data.units, data.turn);
  },
  ArmyRaised(state, data) {
    enlist(state, data, data.at, data.turn + 1);
    const ledger = state.ledgers[data.player]!;
    removeUnits(ledger.reserves, data.units);
    for (const formation of data.formations)
      takeDamagedTitans(ledger, state.armies[data.army]!, formation.id, formation.units);
  },
  FormationReinforced(state, data) {
    const army = state.armies[data.army]!;
    const formation = army.formations.find((f) => f.id === data.formation)!;
    if (Object.values(formation.units).every((count) => count === 0)) forgetDestroyedTitan(army, formation.id);
    addUnits(formation.units, data.units);
    const ledger = state.ledgers[data.player]!;
    removeUnits(ledger.reserves, data.units);
    takeDamagedTitans(ledger, army, formation.id, data.units);
  },
  FormationReplaced(state, data) {
    const army = state.armies[data.army]!;
    army.formations = army.formations.filter((f) => f.id !== data.replaced);
    army.formations.push(data.formation);
    reattach(army.formations, [data.replaced], data.reattached);
    rosterChanged(state, army);
    forgetDestroyedTitan(army, data.replaced);
    const ledger = state.ledgers[data.player]!;
    removeUnits(ledger.reserves, data.units);
    takeDamagedTitans(ledger, army, data.formation.id, data.units);
  },
  FormationsTraded(state, data) {
    const reserves = state.ledgers[data.player]!.reserves;
    removeUnits(reserves, data.unitsOut);
    addUnits(reserves, data.unitsIn);
  },
  EndPhaseFinished(state, data) {
    state.turnState!.endPhaseDone.push(data.player);
  },
  DefencesBuilt(state, data) {
    const key = squareKey(data.at);
    state.defences[key] = (state.defences[key] ?? 0) + data.points;
    // E3 ruling: built with the reveal of a Fortify order, they stand in the battle still to be fought on the square.
    for (const battle of battlesOfTurn(state, data.turn)) {
      if (battle.status !== "resolved" && sameSquare(battle.at, data.at)) {
        battle.defences += data.points;
        battle.builtThisTurn = (battle.builtThisTurn ?? 0) + data.points;
      }
    }
  },
  TurnEnded(state, data) {
    state.turnState!.hostSeed = data.hostSeed;
  },
  LineForked(state, data) {
    const turn = state.turnState;
    if (turn && turn.hostSeed === null && data.voidedSeeds.includes(HOST)) {
      turn.forked = { fromDie: data.fromDie, reseeded: false };
      turn.playerSeedHashes = {};
      turn.playerSeeds = {};
    }
    for (const party of data.voidedSeeds) delete state.seedCommitments[party];
    for (const { army } of data.voidedOrders) turn!.activations[army]!.voided = true;
  },
  TurnReseeded(state, data) {
    const turn = state.turnState!;
    state.hostSeedPrints += seedPrint(data.hostSeedHash);
    turn.hostSeedHash = data.hostSeedHash;
    turn.playerSeedHashes = state.seedCommitments;
    state.seedCommitments = {};
    turn.forked = { fromDie: data.fromDie, reseeded: true };
  },
  OrderRecommitted(state, data) {
    const activation = state.turnState!.activations[data.army]!;
    activation.commitment = data.commitment;
    delete activation.voided;
  },
  CampaignFinished(state, data) {
    state.status = "finished";
    state.result = { winner: data.winner, turn: data.turn };
  },
  CommanderAppointed(state, data) {
    appointCommander(state, data);
  },
  CommanderPromoted(state, data) {
    state.armies[data.army]!.commanderLevel = data.level;
  },
  CommanderKilled(state, data) {
    relieveCommander(state, data.army);
  },
  CommanderStoodDown(state, data) {
    standDownCommander(state, data);
  },
  WarChestIncomeRecorded(state, data) {
    const ledger = state.ledgers[data.player]!;
    ledger.warChest = data.balance;
    ledger.warChestEarned += data.earned;
  },
  FormationsPurchased(state, data) {
    const army = state.armies[data.army]!;
    army.formations.push(...data.formations);
    rosterChanged(state, army);
    state.ledgers[data.player]!.warChest -= data.cost;
  },
  ArmyPurchased(state, data) {
    enlist(state, data, data.at, data.turn + 1);
    state.ledgers[data.player]!.warChest -= data.cost;
  },
  DefencesPurchased(state, data) {
    const key = squareKey(data.at);
    state.defences[key] = (state.defences[key] ?? 0) + data.points;
    state.ledgers[data.player]!.warChest -= data.points;
  },
  TitanDamageCarried(state, data) {
    carryTitanDamage(state.armies[data.army]!, data.damage);
  },
  TitanRepaired(state, data) {
    repairTitanDamage(state.armies[data.army]!, data.formation, data.shields, data.weapons);
    state.ledgers[data.player]!.warChest -= data.cost;
  },
  ReserveTitanRepaired(state, data) {
    const ledger = state.ledgers[data.player]!;
    repairReserveTitan(ledger, data.unitType, data.titan, data.shields, data.weapons);
    ledger.warChest -= data.cost;
  },
  SupportPurchased(state, data) {
    const ledger = state.ledgers[data.player]!;
    ledger[data.paidFrom] -= data.cost;
    ledger.artillery.push({ id: data.item, kind: data.kind, boughtTurn: data.turn });
  },
  SupportExpended(state, data) {
    const ledger = state.ledgers[data.player]!;
    ledger.artillery = ledger.artillery.filter((item) => !data.items.includes(item.id));
  },
  ScoutingDeclared: scoutingDeclared,
  ScoutingAnswered: scoutingAnswered,
  ScoutingRolled: scoutingRolled,
  ArmySizeStated: armySizeStated,
  ...battleKitHandlers,
};

/** Folds one event into a draft, or into a working copy (working-copy.ts) where it stands. */
export function applyEvent(state: Draft<CampaignState>, event: Pick<CurrentEvent, "seq"> & DomainEvent): void {
  (handlers[event.type] as (state: Draft<CampaignState>, data: unknown, seq: number) => void)(
    state,
    event.data,
    event.seq,
  );
  state.seq = event.seq;
}

/** Folds one event into the campaign state. */
export function evolve(state: CampaignState, event: Pick<CurrentEvent, "seq"> & DomainEvent): CampaignState {
  return produce(state, (draft) => applyEvent(draft, event));
}

/** Folds a batch of events in one immer transaction: the replay path. */
export function evolveAll(
  state: CampaignState,
  events: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>,
): CampaignState {
  return produce(state, (draft) => {
    for (const event of events) applyEvent(draft, event);
  });
}

export function replay(events: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>): CampaignState {
  return evolveAll(initialState, events);
}
