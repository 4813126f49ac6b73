/** What a command handler is and answers: the Engine's, the MemoryEngine's, a StagedLine's and a RemoteCampaign's. */
import type { StoredEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { Refusal } from "../rules/refusal.js";
import type { CampaignView } from "../views/view.js";

export type Clock = () => Date;

export type Refused = { ok: false; refusal: Refusal; /** which of several commands was refused */ index: number };

export type Outcome =
  | {
      ok: true;
      events: StoredEvent[];
      state: CampaignState;
      /** Of `events`, how many at the end are the follow-ups' (Engine.execute's `followUps`) and not the commands'. */
      followUps?: number;
    }
  | Refused;

/** What any command handler answers: the events written, as its reader may see them, or a refusal. */
export type Answer<E = StoredEvent> = { ok: true; events: E[] } | Refused;

/**
 * What a Table needs of a command handler: the Engine, the MemoryEngine that keeps no log (src/engine/memory-engine.ts), or
 * a RemoteCampaign on a server (src/client/remote.ts), which sees the campaign as its seat may (S, a CampaignView:
 * the other side's secrets "hidden") and gets the events written as its seat sees them.
 */
export interface CommandHandler<S extends CampaignView = CampaignState, O extends Answer<unknown> = Outcome> {
  state(campaign: string): Promise<S>;
  execute(campaign: string, inputs: readonly unknown[]): Promise<O>;
}
