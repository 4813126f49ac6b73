import { produce, type Draft } from "immer";
import type { CurrentEvent, DomainEvent } from "../events/index.js";
import { armyPoints, awardTable, campaignForce, cvpTarget, moveRate } from "./derived.js";
import { initialState, type CampaignState } from "./state.js";

type Handlers = {
  [T in DomainEvent["type"]]: (state: Draft<CampaignState>, data: Extract<DomainEvent, { type: T }>["data"]) => void;
};

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
  },
  ArmyRegistered(state, data) {
    const points = armyPoints(data.formations, state.setup!.catalogue);
    state.armies[data.army] = {
      id: data.army,
      player: data.player,
      name: data.name,
      formations: data.formations,
      commander: data.commander,
      points,
      moveRate: moveRate(points),
      at: null,
    };
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
};

function apply(state: Draft<CampaignState>, event: Pick<CurrentEvent, "seq"> & DomainEvent): void {
  (handlers[event.type] as (state: Draft<CampaignState>, data: unknown) => void)(state, event.data);
  state.seq = event.seq;
}

/** Folds one event into the campaign state. */
export function evolve(state: CampaignState, event: Pick<CurrentEvent, "seq"> & DomainEvent): CampaignState {
  return produce(state, (draft) => apply(draft, event));
}

/** Folds a batch of events in one immer transaction: the replay path. */
export function evolveAll(state: CampaignState, events: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>): CampaignState {
  return produce(state, (draft) => {
    for (const event of events) apply(draft, event);
  });
}

export function replay(events: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>): CampaignState {
  return evolveAll(initialState, events);
}
