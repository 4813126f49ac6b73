import type { Catalogue } from "../../../events/common.js";
import { describeRefusal } from "../../rules/refusal.js";
import { setupCommands, type SetupFile } from "../../setup-file.js";
import type { Engine } from "../../engine.js";
import { CliError } from "../errors.js";

/** Creates a campaign from a set-up file: every set-up command decided in turn, all written in one batch or none. */
export async function createCampaign(
  engine: Engine,
  setupPath: string,
  setup: SetupFile & { catalogue: Catalogue },
): Promise<{ campaign: string; lines: string[] }> {
  const steps = setupCommands(setup);
  const outcome = await engine.create(steps.map((step) => step.command));
  if (!outcome.ok) {
    throw new CliError(`${setupPath}: ${steps[outcome.index]?.source ?? "setup"}: ${describeRefusal(outcome.refusal)}`);
  }
  const { state } = outcome;
  const armies = Object.keys(state.armies).length;
  const lines = [
    `Created campaign ${state.campaign} "${state.setup!.name}": ${armies} armies, ${Object.keys(state.objectives).length} objectives, ` +
      `${Object.keys(state.homeBases).length} home bases${state.status === "active" ? "; turn 1 begins" : "; set-up continues"}.`,
    `${outcome.events.length} set-up events written.`,
  ];
  return { campaign: state.campaign!, lines };
}
