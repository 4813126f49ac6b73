import type { Draft } from "immer";
import type { EventData } from "../events/index.js";
import type { BattleKitState } from "./battle-kit.js";
import type { CampaignState } from "./state.js";

/** The battle kit's events (K1-K5) folded into the battle they belong to. */
type KitDraft = Draft<BattleKitState>;
const kitOf = (state: Draft<CampaignState>, battle: string): KitDraft => state.battles[battle]!.kit!;

/** D1: every kit roll draws the turn's next dice. */
function drew(state: Draft<CampaignState>, data: { firstDie: number; dice: readonly unknown[] }): void {
  state.turnState!.diceUsed = data.firstDie + data.dice.length;
}

export const battleKitHandlers = {
  ScenarioProposed(state: Draft<CampaignState>, data: EventData<"ScenarioProposed">) {
    kitOf(state, data.battle).scenario.proposal = {
      player: data.player,
      scenario: data.scenario,
      target: data.target ?? null,
    };
  },
  ScenarioAnswered(state: Draft<CampaignState>, data: EventData<"ScenarioAnswered">) {
    const scenario = kitOf(state, data.battle).scenario;
    const proposal = scenario.proposal!;
    if (data.accepted)
      Object.assign(scenario, {
        name: proposal.scenario,
        settled: "agreed",
        by: proposal.player,
        target: proposal.target,
      });
    else scenario.declined = true;
    scenario.proposal = null;
  },
  ScenarioChosen(state: Draft<CampaignState>, data: EventData<"ScenarioChosen">) {
    Object.assign(kitOf(state, data.battle).scenario, {
      name: data.scenario,
      settled: "chosen",
      by: data.player,
      target: data.target ?? null,
    });
  },
  ScenarioRolled(state: Draft<CampaignState>, data: EventData<"ScenarioRolled">) {
    Object.assign(kitOf(state, data.battle).scenario, {
      name: data.scenario,
      settled: "rolled",
      by: null,
      target: data.scenario === "assassination" ? "defenderCommander" : null,
    });
    drew(state, data);
  },
  BattleConditionsRolled(state: Draft<CampaignState>, data: EventData<"BattleConditionsRolled">) {
    kitOf(state, data.battle).conditions = data.conditions;
    drew(state, data);
  },
  EnclosedAgreed(state: Draft<CampaignState>, data: EventData<"EnclosedAgreed">) {
    const kit = kitOf(state, data.battle);
    kit.enclosedAgreedBy.push(data.player);
    kit.enclosed = kit.enclosedAgreedBy.length === 2;
  },
  BattleTurnEnded(state: Draft<CampaignState>, data: EventData<"BattleTurnEnded">) {
    kitOf(state, data.battle).battleTurnsEnded = data.battleTurn;
  },
  GravityFluxRolled(state: Draft<CampaignState>, data: EventData<"GravityFluxRolled">) {
    kitOf(state, data.battle).gravityFlux.push({
      battleTurn: data.battleTurn,
      level: data.level,
      changed: data.changed,
    });
    drew(state, data);
  },
  WhiteOutRolled(state: Draft<CampaignState>, data: EventData<"WhiteOutRolled">) {
    kitOf(state, data.battle).whiteOuts.push({
      battleTurn: data.battleTurn,
      die: data.dice[0]!.face,
      whiteOut: data.whiteOut,
    });
    drew(state, data);
  },
  HitsAllocated(state: Draft<CampaignState>, data: EventData<"HitsAllocated">) {
    kitOf(state, data.battle).volleys[data.volley] = {
      id: data.volley,
      player: data.player,
      units: data.units,
      hits: data.hits,
      allocation: data.allocation ?? null,
      unallocated: data.unallocated,
      saves: null,
      destroyed: null,
    };
  },
  SavesRolled(state: Draft<CampaignState>, data: EventData<"SavesRolled">) {
    const volley = kitOf(state, data.battle).volleys[data.volley]!;
    volley.saves = data.saves;
    volley.destroyed = data.destroyed;
    volley.allocation = data.saves.map(({ hit, unit }) => ({ hit, kind: volley.hits[hit]!, unit }));
    drew(state, data);
  },
  BarrageCalled(state: Draft<CampaignState>, data: EventData<"BarrageCalled">) {
    kitOf(state, data.battle).barrages[data.barrage] = {
      id: data.barrage,
      player: data.player,
      barragePoints: data.barragePoints,
      models: data.models,
      toHit: data.toHit,
      rolls: null,
      hits: null,
    };
  },
  BarrageRolled(state: Draft<CampaignState>, data: EventData<"BarrageRolled">) {
    const barrage = kitOf(state, data.battle).barrages[data.barrage]!;
    barrage.rolls = data.dice.map((die) => die.face);
    barrage.hits = data.hits;
    drew(state, data);
  },
};
