import { expect } from "vitest";
import type { DomainEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { IN_PLACE, type StateKeeping } from "../src/forecast/simulate.js";
import { folded } from "./support/folded.js";

/**
 * A forecast run's state kept on a working copy (IN_PLACE), with a shadow folded beside it as the engine folds: from
 * JSON copies of each command's events, through immer. After every command the working copy must equal the shadow,
 * and the decided events must be as they were decided (the fold in place must not change them). `commands` counts
 * the commands checked.
 */
export function lockstepKeeping(): StateKeeping & { commands: number } {
  let shadow: CampaignState;
  return {
    commands: 0,
    hold(state) {
      shadow = state;
      return IN_PLACE.hold(state);
    },
    fold(state, events) {
      const decided = JSON.stringify(events);
      shadow = folded(shadow, JSON.parse(decided) as DomainEvent[]);
      const next = IN_PLACE.fold(state, events);
      expect(JSON.stringify(events)).toBe(decided);
      expect(next).toEqual(shadow);
      this.commands++;
      return next;
    },
  };
}
