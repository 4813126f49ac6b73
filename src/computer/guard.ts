import type { Answer, CommandHandler, Refused } from "../engine/engine.js";
import type { CampaignView } from "../views/view.js";

/**
 * The command handler the human's side of a campaign against the computer submits to: a command in the computer's
 * name is refused before it reaches the engine (the log stays as it was); only the computer's own seat gives those.
 */
export function withoutComputerSeat<S extends CampaignView, O extends Answer<unknown>>(
  handler: CommandHandler<S, O>,
  seat: string,
): CommandHandler<S, O> {
  return {
    state: (campaign) => handler.state(campaign),
    execute: async (campaign, inputs) => {
      const index = inputs.findIndex((input) => (input as { actor?: unknown } | null)?.actor === seat);
      if (index < 0) return handler.execute(campaign, inputs);
      const refused: Refused = {
        ok: false,
        index,
        refusal: {
          kind: "field",
          field: "actor",
          message: `${seat} is played by the computer in this campaign: its steps are its own (epicwar computer takes them)`,
        },
      };
      return refused as O;
    },
  };
}
