import { Engine, type EngineOptions } from "../engine.js";
import { CliError } from "./errors.js";

/** Opens the engine on a folder for one CLI command and always closes it. */
export async function withEngine<T>(db: string, options: EngineOptions, work: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open(db, options);
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

/** The campaign a command acts on: the one named, or the only one in the folder. */
export async function pickCampaign(engine: Engine, db: string, named: string | undefined): Promise<string> {
  const campaigns = await engine.listCampaigns();
  if (named !== undefined) {
    // A branch's stream id (what --branch resolves to) names a line of a campaign too.
    if (!campaigns.includes(named) && !(await engine.store.branch(named))) {
      throw new CliError(`no campaign "${named}" in ${db}${campaigns.length ? ` (it holds: ${campaigns.join(", ")})` : ""}`);
    }
    return named;
  }
  if (campaigns.length === 1) return campaigns[0]!;
  if (campaigns.length === 0) throw new CliError(`no campaign in ${db}: create one with "epicwar new --db ${db} --setup FILE"`);
  throw new CliError(`${db} holds several campaigns (${campaigns.join(", ")}): choose one with --campaign ID`);
}
