import type { Engine } from "../../engine.js";
import { sequenceRandomHex } from "../../client/prepare.js";
import { FileSecrets } from "../../client/secrets.js";
import { Table } from "../../client/table.js";
import { accountPrinter, playCampaign } from "../../demo/play.js";
import { examplePath } from "../paths.js";
import { renderState } from "../render.js";
import { defaultSecretsDir } from "../seat.js";
import { loadSetupFile } from "../../setup-loader.js";
import { createCampaign } from "./new.js";
import { verifyCampaigns } from "./verify.js";

export const DEMO_DB = "epicwar-demo";
const MAX_TURNS = 30;

/** A bundled example campaign: its id and set-up file in examples/. */
export interface DemoCampaign {
  campaign: string;
  setupFile: string;
  /** The label of the fixed sequence its seeds and salts are drawn from: one whose dice let the demo show its rules. */
  dice: string;
}

/** Ashfall: the basic rules only. */
export const BASIC_DEMO: DemoCampaign = { campaign: "ashfall", setupFile: "ashfall.setup.json", dice: "ashfall-demo" };
/** Emberfall: every advanced rule (A1-A8) on. */
export const ADVANCED_DEMO: DemoCampaign = { campaign: "emberfall", setupFile: "emberfall.setup.json", dice: "emberfall-demo-1" };

/**
 * Sets up the bundled example campaign and plays it to a victory with scripted commanders, telling each turn as it
 * goes; in a folder where it has already been played, tells it again from the log.
 */
export async function runDemo(engine: Engine, db: string, print: (line: string) => void, demo: DemoCampaign = BASIC_DEMO): Promise<void> {
  const { campaign } = demo;
  if ((await engine.listCampaigns()).includes(campaign)) {
    print(`The demo campaign is already in ${db}; this is its account, read back from the log.`);
    const account = accountPrinter(print);
    for await (const batch of engine.store.readBatches(campaign)) account(batch);
  } else {
    const setupPath = examplePath(demo.setupFile);
    for (const line of (await createCampaign(engine, setupPath, await loadSetupFile(setupPath))).lines) print(line);
    print(`Orders are kept secret in ${defaultSecretsDir(db)}; only their commitments go into the log.`);
    const table = new Table(engine, campaign, { secrets: new FileSecrets(defaultSecretsDir(db), campaign), random: sequenceRandomHex(demo.dice) });
    await playCampaign(table, print, MAX_TURNS);
  }
  const state = await engine.state(campaign);
  print("");
  print(renderState(state));
  print("");
  print(
    state.status === "finished"
      ? state.result!.winner
        ? `${state.setup!.players.find((p) => p.id === state.result!.winner)!.name} win the campaign in turn ${state.result!.turn}.`
        : `The campaign ends in a draw in turn ${state.result!.turn}.`
      : `No side reached ${state.setup!.cvpTarget} CVPs in ${MAX_TURNS} turns.`,
  );
  await verifyCampaigns(engine, [campaign], (line) => print(`Hash chain: ${line}`));
}
