import type { CurrentEvent, DomainEvent } from "../../events/index.js";
import { evolveSettling, noSettledBattles, type SettledFold } from "../../projections/settled-battles.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import type { ViewContext } from "./secret-field.js";

/** Whether the commander of this army, still on the map, has no unit of its type left in its formation. */
function noCommanderLeft(state: CampaignState, armyId: string): boolean {
  const army = state.armies[armyId];
  const formation = army?.formations.find((f) => f.id === army.commander.formation);
  return army !== undefined && formation !== undefined && (formation.units[army.commander.unitType] ?? 0) === 0;
}

type LoggedEvent = Pick<CurrentEvent, "seq"> & DomainEvent;

/**
 * The context for viewing a log now: the state after its last event, the battles of the turns before (settled), and
 * the armies whose commander a battle has killed (S8). A commander is killed when a BattleResolved leaves no unit of
 * its type in its formation, judged right after that event: before a rout sends the survivors In Transit and the
 * state stops counting them by formation, before a reinforcement brings the formation back to strength. Once killed,
 * always known, until the army gets a new commander (A6).
 */
export function logViewContext(events: Iterable<LoggedEvent>): ViewContext {
  return new GrowingViewContext().advance(events);
}

/**
 * The context of logViewContext for a log that grows, such as the one a live feed follows: each event is folded once,
 * when its batch comes, onto the state the batches before it left; the context after a batch is the one
 * logViewContext gives for the whole log up to it.
 *
 * The events are folded from copies: evolveAll puts an event's own objects into the state (an army's formations) and a
 * later event of the same batch changes them in place, which would change the caller's events.
 */
export class GrowingViewContext {
  private fold: SettledFold;
  private readonly killed: Set<string>;

  /** `start`: the context of the log up to some seq (a context snapshot), which the events after it are folded onto. */
  constructor(start?: ViewContext) {
    this.fold = { state: start?.state ?? initialState, settled: start?.settled ?? noSettledBattles };
    this.killed = new Set(start?.killed);
  }

  /**
   * Folds the events after those already folded; the context now. `folded`: the state they fold to, where the caller
   * has it (the engine's live state, from the same reducers), taken as it is unless one of the events changes which
   * commanders are known killed, which is judged between events, or starts a turn, which settles the battles before.
   */
  advance(events: Iterable<LoggedEvent>, folded?: CampaignState): ViewContext {
    if (folded) {
      const list = [...events];
      if (!list.some((event) => JUDGED_BETWEEN.has(event.type))) {
        this.fold = { state: folded, settled: this.fold.settled };
        return this.context();
      }
      events = list;
    }
    let pending: LoggedEvent[] = [];
    for (const event of events) {
      pending.push(event);
      // A6: a new commander is a new secret; the one killed is named in its CommanderKilled event.
      if (event.type === "CommanderAppointed") this.killed.delete(event.data.army);
      if (event.type !== "BattleResolved") continue;
      this.fold = evolveSettling(this.fold, structuredClone(pending));
      pending = [];
      const state = this.fold.state;
      const battle = state.battles[event.data.battle];
      for (const army of battle ? [battle.attacker.army, battle.defender.army] : []) {
        if (noCommanderLeft(state, army)) this.killed.add(army);
      }
    }
    this.fold = evolveSettling(this.fold, structuredClone(pending));
    return this.context();
  }

  /** A copy of the killed set: a context handed out stays as it was when later batches change it. */
  private context(): ViewContext {
    return { state: this.fold.state, settled: this.fold.settled, killed: new Set(this.killed) };
  }
}

/** Events after which the context is judged again rather than taken from a state folded elsewhere. */
const JUDGED_BETWEEN = new Set<string>(["BattleResolved", "CommanderAppointed", "TurnStarted"]);
