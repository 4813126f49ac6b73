import { SCENARIOS, type HitKind, type TargetUnit } from "../../events/kit-common.js";
import type { BattleState, CampaignState } from "../../projections/state.js";
import { battlesThisTurn } from "../rules/action-common.js";
import { scenarioDue } from "../rules/battle-kit.js";
import type { PlainCommand } from "./plain-command.js";

/**
 * The demo commanders at the battle kit (K2, K3, K5): they settle each battle's scenario as the campaign asks (the
 * attacker proposes in turn one of seed 001's scenarios, the defender declines every third proposal so the host rolls
 * it), agree to fight city battles enclosed, and before reporting a result have the assistant allocate one volley on
 * the defender's army (its saves rolled), call one Heresy barrage, and end a battle turn under Gravity Flux.
 */
export function nextKitDecision(state: CampaignState): PlainCommand | undefined {
  const kit = state.setup!.options.battleKit;
  if (!kit) return undefined;
  const battles = battlesThisTurn(state);
  for (const battle of battles) {
    const due = scenarioDue(kit, battle);
    if (due) return scenarioDecision(battle, due);
  }
  // What the players may do but do not owe waits for the Battle phase, where both of a battle's players are waited on
  // (for its result), so that a seat playing from its own view takes these steps too.
  if (state.phase !== "battle") return undefined;
  const battle = battles.find((b) => b.status === "pending" && b.kit);
  if (!battle?.kit) return undefined;
  if (!battle.kit.enclosed && kit.enclosedCities === "agreed" && cityBattle(state, battle)) {
    const agreeing = [battle.attacker.player, battle.defender.player].find(
      (player) => !battle.kit!.enclosedAgreedBy.includes(player),
    );
    if (agreeing) return { actor: agreeing, type: "AgreeEnclosed", battle: battle.id };
  }
  if (Object.keys(battle.kit.volleys).length === 0)
    return { actor: battle.defender.player, type: "AllocateHits", battle: battle.id, ...volleyOn(state, battle) };
  if (kit.profile === "heresy" && Object.keys(battle.kit.barrages).length === 0)
    return {
      actor: battle.attacker.player,
      type: "CallBarrage",
      battle: battle.id,
      barragePoints: 4 + battle.index,
      models: 5,
    };
  if (battle.kit.conditions?.gravity?.flux && battle.kit.battleTurnsEnded === 0)
    return { actor: battle.attacker.player, type: "EndBattleTurn", battle: battle.id, battleTurn: 1 };
  return undefined;
}

function cityBattle(state: CampaignState, battle: BattleState): boolean {
  const [x, y] = battle.at;
  return state.setup!.map.terrain[y]![x] === "c";
}

function scenarioDecision(battle: BattleState, due: { player: string; command: string }): PlainCommand {
  const index = battle.index + battle.turn;
  const decision = { actor: due.player, type: due.command, battle: battle.id };
  if (due.command === "AnswerScenario") return { ...decision, accept: index % 3 !== 0 };
  // The demo leaves out the Assassination: its target is a leader only the player choosing it may name.
  const choices = SCENARIOS.filter((scenario) => scenario !== "assassination");
  return { ...decision, scenario: choices[index % choices.length] };
}

/** A volley of mixed hits on the defender's army: its units measured closest first, the closest out of sight. */
function volleyOn(state: CampaignState, battle: BattleState): { units: TargetUnit[]; hits: HitKind[] } {
  const { unitTypes } = state.setup!.catalogue;
  const army = state.armies[battle.defender.army]!;
  const units: TargetUnit[] = army.formations
    .flatMap((formation) =>
      Object.entries(formation.units)
        .filter(([, count]) => count > 0)
        .map(([type]) => ({ id: `${formation.id}-${type}`, abilities: unitTypes[type]?.abilities ?? [] })),
    )
    .slice(0, 6)
    .map(({ id, abilities }, i) => ({
      id,
      kind: abilities.includes("titan")
        ? "warEngine"
        : abilities.includes("infantry")
          ? "infantry"
          : abilities.includes("transport")
            ? "lightVehicle"
            : "armouredVehicle",
      distanceCm: 10 + 5 * i,
      save: abilities.includes("infantry") ? 6 : 4,
      eligible: i > 0,
    }));
  return { units, hits: ["AP", "AT", "MW", "AP", "AT"] };
}
