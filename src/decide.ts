import type { DomainEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import type { Command } from "./commands/schemas.js";
import { Refused, type Refusal } from "./rules/refusal.js";
import {
  decideCreateCampaign,
  decideDeployArmy,
  decidePlaceHomeBase,
  decidePlaceObjective,
  decideRegisterArmy,
  decideStartCampaign,
} from "./rules/setup.js";

export type Decision = { ok: true; events: DomainEvent[] } | { ok: false; refusal: Refusal };

type Deciders = { [T in Command["type"]]: (state: CampaignState, command: Extract<Command, { type: T }>) => DomainEvent[] };

const deciders: Deciders = {
  CreateCampaign: decideCreateCampaign,
  RegisterArmy: decideRegisterArmy,
  PlaceHomeBase: decidePlaceHomeBase,
  PlaceObjective: decidePlaceObjective,
  DeployArmy: decideDeployArmy,
  StartCampaign: decideStartCampaign,
};

/** The rules: a schema-checked command against the current state gives events or a refusal. Pure. */
export function decide(state: CampaignState, command: Command): Decision {
  if (state.status === "finished") {
    return { ok: false, refusal: { kind: "rule", rule: "E2", message: "the campaign is over and accepts no more commands" } };
  }
  try {
    const decider = deciders[command.type] as (state: CampaignState, command: Command) => DomainEvent[];
    return { ok: true, events: decider(state, command) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
