import type { EventData } from "../events/index.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { modelResultFromDice } from "../src/forecast/battle-model.js";
import type { CampaignState } from "../projections/state.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";

/**
 * B4 with `options.battles: "model"`: every result the host entered as the battle model's is drawn again by the
 * model from the dice it records, on the campaign as it stood; a result that differs, or dice the model would not
 * read all of, is flagged. Whether the dice are the seeds' is D1's check (audit-d1-kit-rolls.ts).
 */
export class ModelBattleAudit implements AdvancedCheck {
  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    if (event.type !== "BattleResolved") return;
    const data = event.data as EventData<"BattleResolved">;
    if (data.resolvedBy !== "model") return;
    const where = `battle ${data.battle}'s result by the battle model (seq ${event.seq})`;
    const battle = state.battles[data.battle];
    if (!battle || state.setup?.options.battles !== "model") {
      this.flag(event, `${where} is in a campaign whose battles are not resolved by the model`);
      return;
    }
    const faces = data.dice ?? [];
    let read = 0;
    let short = false;
    const result = modelResultFromDice(state, battle, () => {
      if (read < faces.length) return faces[read++]!;
      short = true;
      return 1;
    });
    if (short || read < faces.length)
      this.flag(event, `${where} records ${faces.length} dice, but the model reads ${short ? "more" : read}`);
    else if (canonicalJson(result) !== canonicalJson(data.result))
      this.flag(event, `${where} records ${canonicalJson(data.result)} but the model draws ${canonicalJson(result)}`);
  }

  private flag(event: CheckedEvent, detail: string): void {
    this.report({ verdict: V.modelMismatch, rule: "B4", seqs: [event.seq], detail });
  }
}
