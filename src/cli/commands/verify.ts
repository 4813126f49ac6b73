import type { Engine } from "../../engine.js";
import { verifyStream, type VerifyResult } from "../../log/index.js";
import { CliError, EXIT } from "../errors.js";

const broken = (result: Extract<VerifyResult, { ok: false }>) =>
  `${result.stream}: chain broken at seq ${result.seq} (${result.problem}): ${result.message}`;

/** Verifies the chain of each campaign; throws naming the first bad seq of the first broken one. */
export async function verifyCampaigns(
  engine: Engine,
  campaigns: string[],
  print: (line: string) => void,
): Promise<void> {
  for (const campaign of campaigns) {
    const result = await verifyStream(engine.store, campaign);
    if (!result.ok) throw new CliError(broken(result), EXIT.broken);
    print(`${campaign}: intact, ${result.events} events, head ${result.headHash.slice(0, 16)}`);
  }
}

/**
 * Refuses to go on with a line whose log fails verification (exit 2, naming its first bad seq), before anything is
 * decided on it or written to it: a command is never played on a log that was changed outside epicwar.
 */
export async function requireIntact(engine: Engine, stream: string): Promise<void> {
  const result = await verifyStream(engine.store, stream);
  if (!result.ok) throw new CliError(`${broken(result)}; nothing was written`, EXIT.broken);
}
