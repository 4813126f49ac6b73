import type { BattleKitOptions } from "../../events/common.js";
import { requireDiceSeeded } from "./line-fork.js";
import type { DomainEvent } from "../../events/index.js";
import type { AssassinationTarget, KitDie, Scenario } from "../../events/kit-common.js";
import { currentGravity, type BattleKitState } from "../../projections/battle-kit.js";
import {
  barrageHitsFromDice,
  barrageToHit,
  conditionsFromDice,
  gravityFluxFromDice,
  inBlizzard,
  rollsConditions,
  scenarioFromDice,
  whiteOutFromDice,
  type TakeDie,
} from "../../projections/battle-kit-tables.js";
import { terrainAt } from "../../projections/grid.js";
import type { BattleState, CampaignState, PlayerState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireHostActor } from "./action-common.js";
import { requirePlayer, requireSetup } from "./guards.js";
import { rollVolley, unallocatedHits } from "./hit-allocation.js";
import { refuseField, refuseRule } from "./refusal.js";

/**
 * The battle kit (K2, K3, K5) as commands: the scenario proposed, answered, chosen or rolled; the conditions rolled;
 * a city battle agreed enclosed; Gravity Flux rolled at each battle turn's End phase; the assistant's hit allocation,
 * saves and Heresy barrages. The host's rolls carry the faces it drew from the turn's seeds (D1): their form is checked
 * here, their values by the audit once the host's seed is out. Nothing of a battle is settled once its result is in.
 */

interface KitBattle {
  kit: BattleKitOptions;
  battle: BattleState & { kit: BattleKitState };
}

function requireKitBattle(state: CampaignState, id: string, rule: string): KitBattle {
  const kit = requireSetup(state).options.battleKit;
  if (!kit) refuseRule(rule, "this campaign plays no battle kit (its battleKit option is not set)");
  const battle = state.battles[id];
  if (!battle || !battle.kit) refuseField("battle", `no battle "${id}"`);
  if (battle.turn !== state.turn || !state.turnState || state.turnState.hostSeed !== null)
    refuseRule(rule, `battle ${id} was fought in turn ${battle.turn}, which is over: its sheet is closed`);
  if (battle.status !== "pending")
    refuseRule(rule, `battle ${id}'s result is ${battle.status}: nothing about it may be settled after the fact`);
  return { kit, battle: battle as KitBattle["battle"] };
}

function requireBattlePlayer(state: CampaignState, battle: BattleState, actor: string): PlayerState {
  const player = requirePlayer(state, actor);
  if (player.id !== battle.attacker.player && player.id !== battle.defender.player)
    refuseField("actor", `${player.id} does not fight battle ${battle.id}`);
  return player;
}

/**
 * D1: reads a host's faces as a roll takes its dice, refusing a face larger than its die; `done` refuses faces left
 * over. The dice read are kept for the event.
 */
export function facesReader(faces: readonly number[]): { take: TakeDie; dice: KitDie[]; done: () => void } {
  const dice: KitDie[] = [];
  const take: TakeDie = (sides) => {
    const face = faces[dice.length];
    if (face === undefined)
      refuseRule("D1", `the roll needs more dice than the ${faces.length} given: draw them from the turn's seeds`);
    if (face > sides) refuseRule("D1", `die ${dice.length + 1} is a d${sides}, which cannot show ${face}`);
    dice.push({ sides, face });
    return face;
  };
  const done = () => {
    if (faces.length > dice.length)
      refuseRule("D1", `the roll takes ${dice.length} dice, not the ${faces.length} given`);
  };
  return { take, dice, done };
}

/** The event fields of a host's roll from its faces: the dice read, from the turn's next die. */
function rolled<T>(state: CampaignState, faces: readonly number[], roll: (take: TakeDie) => T) {
  requireDiceSeeded(state);
  const reader = facesReader(faces);
  const outcome = roll(reader.take);
  reader.done();
  return { outcome, fields: { turn: state.turn, firstDie: state.turnState!.diceUsed, dice: reader.dice } };
}

// ---------- K2 scenario ----------

function requireUnsettled({ battle }: KitBattle): void {
  if (battle.kit.scenario.name !== null)
    refuseRule("K2", `battle ${battle.id}'s scenario is already settled: ${battle.kit.scenario.name}`);
}

/** K2: an Assassination names a leader: a unit type the named army of this battle has. */
function requireTarget(
  state: CampaignState,
  battle: BattleState,
  scenario: string,
  target: AssassinationTarget | undefined,
): void {
  if (scenario !== "assassination") {
    if (target) refuseField("target", "only an Assassination names a target");
    return;
  }
  if (!target)
    refuseRule("K2", "an Assassination names its target: the leader (an army of this battle and a unit type of it)");
  if (target.army !== battle.attacker.army && target.army !== battle.defender.army)
    refuseField("target.army", `"${target.army}" does not fight battle ${battle.id}`);
  const army = state.armies[target.army]!;
  if (!army.formations.some((formation) => (formation.units[target.unitType] ?? 0) > 0))
    refuseField("target.unitType", `army "${army.id}" has no "${target.unitType}" unit left`);
}

/** K2: the data of a scenario a player proposes or chooses. */
function scenarioSetting(
  state: CampaignState,
  battle: BattleState,
  player: PlayerState,
  command: { scenario: Scenario; target?: AssassinationTarget },
) {
  return {
    turn: state.turn,
    battle: battle.id,
    player: player.id,
    scenario: command.scenario,
    ...(command.target && { target: command.target }),
  };
}

export function decideProposeScenario(state: CampaignState, command: CommandOf<"ProposeScenario">): DomainEvent[] {
  const kitBattle = requireKitBattle(state, command.battle, "K2");
  const { kit, battle } = kitBattle;
  const player = requireBattlePlayer(state, battle, command.actor);
  if (kit.scenario !== "attackerProposes")
    refuseRule("K2", `this campaign settles scenarios as "${kit.scenario ?? "none"}": no proposals`);
  if (player.id !== battle.attacker.player)
    refuseRule("K2", `the attacker, ${battle.attacker.player}, proposes the scenario; ${player.id} answers it`);
  requireUnsettled(kitBattle);
  if (battle.kit.scenario.declined)
    refuseRule("K2", `${battle.defender.player} declined the proposal: battle ${battle.id}'s scenario is rolled`);
  if (battle.kit.scenario.proposal)
    refuseRule("K2", `a proposal for battle ${battle.id} awaits ${battle.defender.player}'s answer`);
  requireTarget(state, battle, command.scenario, command.target);
  return [{ type: "ScenarioProposed", data: scenarioSetting(state, battle, player, command) }];
}

export function decideAnswerScenario(state: CampaignState, command: CommandOf<"AnswerScenario">): DomainEvent[] {
  const { battle } = requireKitBattle(state, command.battle, "K2");
  const player = requireBattlePlayer(state, battle, command.actor);
  if (!battle.kit.scenario.proposal) refuseRule("K2", `no scenario has been proposed for battle ${battle.id}`);
  if (player.id !== battle.defender.player)
    refuseRule("K2", `the defender, ${battle.defender.player}, answers the attacker's proposal`);
  return [
    {
      type: "ScenarioAnswered",
      data: { turn: state.turn, battle: battle.id, player: player.id, accepted: command.accept },
    },
  ];
}

export function decideChooseScenario(state: CampaignState, command: CommandOf<"ChooseScenario">): DomainEvent[] {
  const kitBattle = requireKitBattle(state, command.battle, "K2");
  const { kit, battle } = kitBattle;
  const player = requireBattlePlayer(state, battle, command.actor);
  const chooser =
    kit.scenario === "attackerChooses"
      ? battle.attacker.player
      : kit.scenario === "defenderChooses"
        ? battle.defender.player
        : null;
  if (chooser === null)
    refuseRule("K2", `this campaign settles scenarios as "${kit.scenario ?? "none"}": nobody chooses one`);
  if (player.id !== chooser)
    refuseRule("K2", `${chooser} chooses the scenario of battle ${battle.id} in this campaign`);
  requireUnsettled(kitBattle);
  requireTarget(state, battle, command.scenario, command.target);
  return [{ type: "ScenarioChosen", data: scenarioSetting(state, battle, player, command) }];
}

/** K2: a battle whose scenario the host rolls now: the campaign rolls them, or the defender declined the proposal. */
export function scenarioToRoll(kit: BattleKitOptions, battle: { kit?: BattleKitState }): boolean {
  const scenario = battle.kit?.scenario;
  return !!scenario && scenario.name === null && (kit.scenario === "rolled" || scenario.declined);
}

export function decideRollScenario(state: CampaignState, command: CommandOf<"RollScenario">): DomainEvent[] {
  requireHostActor(command.actor);
  const kitBattle = requireKitBattle(state, command.battle, "K2");
  requireUnsettled(kitBattle);
  if (!scenarioToRoll(kitBattle.kit, kitBattle.battle))
    refuseRule("K2", `battle ${command.battle}'s scenario is the players' to settle, not rolled`);
  const { outcome, fields } = rolled(state, command.dice, scenarioFromDice);
  return [{ type: "ScenarioRolled", data: { ...fields, battle: command.battle, scenario: outcome } }];
}

// ---------- K3 conditions ----------

/** K3: a battle whose conditions the host rolls now. */
export function conditionsToRoll(kit: BattleKitOptions, battle: { kit?: BattleKitState }): boolean {
  return rollsConditions(kit) && !!battle.kit && battle.kit.conditions === null;
}

export function decideRollBattleConditions(
  state: CampaignState,
  command: CommandOf<"RollBattleConditions">,
): DomainEvent[] {
  requireHostActor(command.actor);
  const { kit, battle } = requireKitBattle(state, command.battle, "K3");
  if (!rollsConditions(kit)) refuseRule("K3", "this campaign rolls no battle conditions");
  if (battle.kit.conditions !== null) refuseRule("K3", `battle ${battle.id}'s conditions are already rolled`);
  const { outcome, fields } = rolled(state, command.dice, (take) => conditionsFromDice(kit, take));
  return [{ type: "BattleConditionsRolled", data: { ...fields, battle: battle.id, conditions: outcome } }];
}

export function decideAgreeEnclosed(state: CampaignState, command: CommandOf<"AgreeEnclosed">): DomainEvent[] {
  const { kit, battle } = requireKitBattle(state, command.battle, "K3");
  const player = requireBattlePlayer(state, battle, command.actor);
  if (terrainAt(state.setup!.map, battle.at) !== "city")
    refuseRule("K3", `battle ${battle.id} is not on a city square: only a city battle may be enclosed`);
  if (kit.enclosedCities !== "agreed")
    refuseRule(
      "K3",
      `this campaign's city battles are ${kit.enclosedCities === "always" ? "always" : "never"} enclosed: the players do not choose`,
    );
  if (battle.kit.enclosedAgreedBy.includes(player.id))
    refuseRule("K3", `${player.id} has already agreed that battle ${battle.id} is enclosed`);
  return [{ type: "EnclosedAgreed", data: { turn: state.turn, battle: battle.id, player: player.id } }];
}

/** K3: a battle in Gravity Flux whose last ended battle turn has not had its roll. */
export function fluxToRoll(battle: { kit?: BattleKitState }): boolean {
  const kit = battle.kit;
  return !!kit?.conditions?.gravity?.flux && kit.gravityFlux.length < kit.battleTurnsEnded;
}

/** K3: the battle turn whose white-out is due: a blizzard on the battlefield and no roll for it yet; else null. */
export function whiteOutToRoll(battle: { kit?: BattleKitState }): number | null {
  const kit = battle.kit;
  const blizzard = kit?.conditions?.blizzard;
  if (!kit || !blizzard) return null;
  const battleTurn = kit.battleTurnsEnded + 1;
  const rolled = kit.whiteOuts.some((roll) => roll.battleTurn === battleTurn);
  return !rolled && inBlizzard(blizzard.band, battleTurn) ? battleTurn : null;
}

export function decideRollWhiteOut(state: CampaignState, command: CommandOf<"RollWhiteOut">): DomainEvent[] {
  requireHostActor(command.actor);
  const { battle } = requireKitBattle(state, command.battle, "K3");
  const battleTurn = whiteOutToRoll(battle);
  if (battleTurn === null)
    refuseRule("K3", `battle ${battle.id} has no blizzard white-out to roll for its battle turn now`);
  const { outcome, fields } = rolled(state, command.dice, whiteOutFromDice);
  return [{ type: "WhiteOutRolled", data: { ...fields, battle: battle.id, battleTurn, whiteOut: outcome } }];
}

export function decideEndBattleTurn(state: CampaignState, command: CommandOf<"EndBattleTurn">): DomainEvent[] {
  const { battle } = requireKitBattle(state, command.battle, "K3");
  const player = requireBattlePlayer(state, battle, command.actor);
  const next = battle.kit.battleTurnsEnded + 1;
  if (command.battleTurn !== next)
    refuseRule("K3", `battle ${battle.id}'s next battle turn to end is turn ${next}, not ${command.battleTurn}`);
  if (fluxToRoll(battle)) refuseRule("K3", `Gravity Flux for battle turn ${next - 1} has not been rolled yet`);
  if (whiteOutToRoll(battle) !== null)
    refuseRule("K3", `the blizzard's white-out roll for battle turn ${next} has not been made yet`);
  return [
    { type: "BattleTurnEnded", data: { turn: state.turn, battle: battle.id, player: player.id, battleTurn: next } },
  ];
}

export function decideRollGravityFlux(state: CampaignState, command: CommandOf<"RollGravityFlux">): DomainEvent[] {
  requireHostActor(command.actor);
  const { battle } = requireKitBattle(state, command.battle, "K3");
  if (!battle.kit.conditions?.gravity?.flux) refuseRule("K3", `battle ${battle.id} is not in Gravity Flux`);
  if (!fluxToRoll(battle))
    refuseRule("K3", `no battle turn of battle ${battle.id} has ended since the last Gravity Flux roll`);
  const current = currentGravity(battle.kit)!;
  const { outcome, fields } = rolled(state, command.dice, (take) => gravityFluxFromDice(current, take));
  return [
    {
      type: "GravityFluxRolled",
      data: {
        ...fields,
        battle: battle.id,
        battleTurn: battle.kit.gravityFlux.length + 1,
        level: outcome.level,
        changed: outcome.level !== current,
      },
    },
  ];
}

// ---------- K5 battle assistant ----------

export function decideAllocateHits(state: CampaignState, command: CommandOf<"AllocateHits">): DomainEvent[] {
  const { battle } = requireKitBattle(state, command.battle, "K5");
  const player = requireBattlePlayer(state, battle, command.actor);
  const volley = command.volley ?? `${battle.id}v${Object.keys(battle.kit.volleys).length + 1}`;
  if (battle.kit.volleys[volley]) refuseField("volley", `battle ${battle.id} already has a volley "${volley}"`);
  const ids = new Set<string>();
  command.units.forEach((unit, i) => {
    if (ids.has(unit.id)) refuseField(`units[${i}].id`, `unit "${unit.id}" is listed twice`);
    ids.add(unit.id);
  });
  return [
    {
      type: "HitsAllocated",
      data: {
        turn: state.turn,
        battle: battle.id,
        player: player.id,
        volley,
        units: command.units,
        hits: command.hits,
        unallocated: unallocatedHits(command.units, command.hits),
      },
    },
  ];
}

/** K5: a volley whose allocated hits await their saves. */
export function volleysToRoll(battle: { kit?: BattleKitState }): string[] {
  return Object.values(battle.kit?.volleys ?? {})
    .filter((volley) => volley.saves === null && volley.unallocated.length < volley.hits.length)
    .map((volley) => volley.id);
}

export function decideRollSaves(state: CampaignState, command: CommandOf<"RollSaves">): DomainEvent[] {
  requireHostActor(command.actor);
  const { battle } = requireKitBattle(state, command.battle, "K5");
  const volley = battle.kit.volleys[command.volley];
  if (!volley) refuseField("volley", `battle ${battle.id} has no volley "${command.volley}"`);
  if (volley.saves !== null) refuseRule("K5", `volley ${volley.id}'s saves are already rolled`);
  if (volley.unallocated.length === volley.hits.length)
    refuseRule("K5", `volley ${volley.id} put no hit on any unit: nothing to save`);
  const { outcome, fields } = rolled(state, command.dice, (take) =>
    rollVolley(volley.units, volley.hits, take, volley.allocation ?? undefined),
  );
  return [{ type: "SavesRolled", data: { ...fields, battle: battle.id, volley: volley.id, ...outcome } }];
}

export function decideCallBarrage(state: CampaignState, command: CommandOf<"CallBarrage">): DomainEvent[] {
  const { kit, battle } = requireKitBattle(state, command.battle, "K5");
  const player = requireBattlePlayer(state, battle, command.actor);
  if (kit.profile !== "heresy")
    refuseRule("K5", "barrage points and d10 rolls are Heresy's: this campaign plays the NetEpic profile");
  const barrage = command.barrage ?? `${battle.id}a${Object.keys(battle.kit.barrages).length + 1}`;
  if (battle.kit.barrages[barrage]) refuseField("barrage", `battle ${battle.id} already has a barrage "${barrage}"`);
  return [
    {
      type: "BarrageCalled",
      data: {
        turn: state.turn,
        battle: battle.id,
        player: player.id,
        barrage,
        barragePoints: command.barragePoints,
        models: command.models,
        toHit: barrageToHit(command.barragePoints),
      },
    },
  ];
}

/** K5: a barrage called and not yet rolled. */
export function barragesToRoll(battle: { kit?: BattleKitState }): string[] {
  return Object.values(battle.kit?.barrages ?? {})
    .filter((barrage) => barrage.hits === null)
    .map((barrage) => barrage.id);
}

export function decideRollBarrage(state: CampaignState, command: CommandOf<"RollBarrage">): DomainEvent[] {
  requireHostActor(command.actor);
  const { battle } = requireKitBattle(state, command.battle, "K5");
  const barrage = battle.kit.barrages[command.barrage];
  if (!barrage) refuseField("barrage", `battle ${battle.id} has no barrage "${command.barrage}"`);
  if (barrage.hits !== null) refuseRule("K5", `barrage ${barrage.id} is already rolled`);
  const { outcome, fields } = rolled(state, command.dice, (take) =>
    barrageHitsFromDice(barrage.models, barrage.toHit, take),
  );
  return [{ type: "BarrageRolled", data: { ...fields, battle: battle.id, barrage: barrage.id, hits: outcome } }];
}

// ---------- what is due ----------

/** A host's kit roll that is due: the command and what it names. */
export interface KitRollDue {
  type: "RollScenario" | "RollBattleConditions" | "RollGravityFlux" | "RollWhiteOut" | "RollSaves" | "RollBarrage";
  battle: string;
  volley?: string;
  barrage?: string;
}

/** D1: the kit rolls the host owes for the battles of the turn under way whose result is not in, in the order due. */
export function kitRollsDue(
  kit: BattleKitOptions | undefined,
  battles: ReadonlyArray<{ id: string; status: string; kit?: BattleKitState }>,
): KitRollDue[] {
  if (!kit) return [];
  return battles
    .filter((battle) => battle.status === "pending" && battle.kit)
    .flatMap((battle): KitRollDue[] => [
      ...(conditionsToRoll(kit, battle) ? [{ type: "RollBattleConditions" as const, battle: battle.id }] : []),
      ...(scenarioToRoll(kit, battle) ? [{ type: "RollScenario" as const, battle: battle.id }] : []),
      ...(fluxToRoll(battle) ? [{ type: "RollGravityFlux" as const, battle: battle.id }] : []),
      ...(!fluxToRoll(battle) && whiteOutToRoll(battle) !== null
        ? [{ type: "RollWhiteOut" as const, battle: battle.id }]
        : []),
      ...volleysToRoll(battle).map((volley) => ({ type: "RollSaves" as const, battle: battle.id, volley })),
      ...barragesToRoll(battle).map((barrage) => ({ type: "RollBarrage" as const, battle: battle.id, barrage })),
    ]);
}

/** K2: who is to settle a battle's scenario now, and with which command (null when nobody, or the host rolls it). */
export function scenarioDue(
  kit: BattleKitOptions | undefined,
  battle: { status: string; kit?: BattleKitState; attacker: { player: string }; defender: { player: string } },
): { player: string; command: "ProposeScenario" | "AnswerScenario" | "ChooseScenario" } | null {
  const scenario = battle.kit?.scenario;
  if (!kit || !scenario || battle.status !== "pending" || scenario.name !== null || scenario.declined) return null;
  switch (kit.scenario) {
    case "attackerProposes":
      return scenario.proposal
        ? { player: battle.defender.player, command: "AnswerScenario" }
        : { player: battle.attacker.player, command: "ProposeScenario" };
    case "attackerChooses":
      return { player: battle.attacker.player, command: "ChooseScenario" };
    case "defenderChooses":
      return { player: battle.defender.player, command: "ChooseScenario" };
    default:
      return null;
  }
}

/**
 * D1: what a due kit roll reads from the dice, for whoever draws them (the host's client, from the turn's seeds) and
 * whoever checks them (the audit): the same tables the deciders read.
 */
export function drawKitRoll(roll: KitRollDue, kit: BattleKitOptions, battle: BattleKitState, take: TakeDie): void {
  switch (roll.type) {
    case "RollScenario":
      scenarioFromDice(take);
      return;
    case "RollBattleConditions":
      conditionsFromDice(kit, take);
      return;
    case "RollGravityFlux":
      gravityFluxFromDice(currentGravity(battle)!, take);
      return;
    case "RollWhiteOut":
      whiteOutFromDice(take);
      return;
    case "RollSaves": {
      const volley = battle.volleys[roll.volley!]!;
      rollVolley(volley.units, volley.hits, take, volley.allocation ?? undefined);
      return;
    }
    case "RollBarrage": {
      const barrage = battle.barrages[roll.barrage!]!;
      barrageHitsFromDice(barrage.models, barrage.toHit, take);
      return;
    }
  }
}
