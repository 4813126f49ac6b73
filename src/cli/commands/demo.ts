import { toCurrent } from "../../../events/index.js";
import type { Engine } from "../../engine.js";
import { describeEvent } from "../describe.js";
import { examplePath } from "../paths.js";
import { renderState } from "../render.js";
import { createCampaign } from "./new.js";
import { verifyCampaigns } from "./verify.js";

export const DEMO_CAMPAIGN = "ashfall";
export const DEMO_DB = "epicwar-demo";

/** Sets up the bundled example campaign (once per folder) and tells what happened, from the log itself. */
export async function runDemo(engine: Engine, db: string, print: (line: string) => void): Promise<void> {
  if ((await engine.listCampaigns()).includes(DEMO_CAMPAIGN)) {
    print(`The demo campaign is already in ${db}; this is its account, read back from the log.`);
  } else {
    for (const line of (await createCampaign(engine, examplePath("ashfall.setup.json"))).lines) print(line);
  }
  print("");
  print("What happened:");
  for await (const batch of engine.store.readBatches(DEMO_CAMPAIGN)) {
    for (const event of batch) print(`  ${describeEvent(toCurrent(event))}`);
  }
  print("");
  print(renderState(await engine.state(DEMO_CAMPAIGN)));
  print("");
  await verifyCampaigns(engine, [DEMO_CAMPAIGN], (line) => print(`Hash chain: ${line}`));
}
