import type { Engine } from "../../engine.js";
import { verifyStream } from "../../log/index.js";
import { CliError, EXIT } from "../errors.js";

/** Verifies the chain of each campaign; throws naming the first bad seq of the first broken one. */
export async function verifyCampaigns(engine: Engine, campaigns: string[], print: (line: string) => void): Promise<void> {
  for (const campaign of campaigns) {
    const result = await verifyStream(engine.store, campaign);
    if (!result.ok) throw new CliError(`${campaign}: chain broken at seq ${result.seq} (${result.problem}): ${result.message}`, EXIT.broken);
    print(`${campaign}: intact, ${result.events} events, head ${result.headHash.slice(0, 16)}`);
  }
}
