import { toCurrent } from "../../../events/index.js";
import type { Engine } from "../../engine.js";
import { logLine } from "../describe.js";
import { renderState } from "../render.js";

export async function showState(engine: Engine, campaign: string, json: boolean): Promise<string> {
  const state = await engine.state(campaign);
  return json ? JSON.stringify(state, null, 2) : renderState(state);
}

/** Prints the log, one event a line: as stored (JSON Lines) or in players' words. */
export async function showLog(engine: Engine, campaign: string, json: boolean, print: (line: string) => void): Promise<void> {
  for await (const batch of engine.store.readBatches(campaign)) {
    for (const event of batch) print(json ? JSON.stringify(event) : logLine(toCurrent(event)));
  }
}
