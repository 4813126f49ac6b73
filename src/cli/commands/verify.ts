import type { Engine } from "../../engine/engine.js";
import { verifyStream, type SignatureCounts, type VerifyResult } from "../../log/index.js";
import { CliError, EXIT } from "../errors.js";
import type { Command } from "commander";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";

const broken = (result: Extract<VerifyResult, { ok: false }>) =>
  result.problem === "signature"
    ? `${result.stream}: signature broken at seq ${result.seq} (D2): ${result.message}`
    : `${result.stream}: chain broken at seq ${result.seq} (${result.problem}): ${result.message}`;

/** What the signature check counted, in words: a log from before keys shows every event as unsigned. */
function signatureWords({ signed, unsigned, unsignedWithKey }: SignatureCounts): string {
  const parties = Object.entries(unsigned);
  const unsignedTotal = parties.reduce((sum, [, count]) => sum + count, 0);
  const byParty = parties.map(([party, count]) => `${party} ${count}`).join(", ");
  return (
    `signatures: ${signed} signed commands verified against the keys in force, ` +
    `${unsignedWithKey} events of a party with a key in force written after them (the audit decides each again), ` +
    `${unsignedTotal} events unsigned (no key in force)${byParty ? `: ${byParty}` : ""}`
  );
}

/**
 * Verifies the chain and the signatures of each campaign; throws naming the first bad seq of the first broken one.
 * Prints a line for each chain, and its signature counts after it through `printSignatures` when given.
 */
export async function verifyCampaigns(
  engine: Engine,
  campaigns: string[],
  print: (line: string) => void,
  printSignatures?: (line: string) => void,
): Promise<void> {
  for (const campaign of campaigns) {
    const result = await verifyStream(engine.store, campaign, { signatures: true });
    if (!result.ok) throw new CliError(broken(result), EXIT.broken);
    print(`${campaign}: intact, ${result.events} events, head ${result.headHash.slice(0, 16)}`);
    if (result.signatures) printSignatures?.(`  ${signatureWords(result.signatures)}`);
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

/** Registers `verify`: checks the hash chain of one campaign, or of every campaign and branch in the folder. */
export function registerVerify(
  program: Command,
  { action, print, dbOption, campaignOption, branchOption }: CliKit,
): void {
  program
    .command("verify")
    .description(
      "check the hash chain and every signed command of a campaign (all campaigns and branches in the folder by default); exit 2 naming the first bad seq",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .action(
      action(async (options: { db: string; campaign?: string }) => {
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const campaigns = options.campaign
            ? [await pickCampaign(engine, options.db, options.campaign)]
            : [...(await engine.listCampaigns()), ...(await engine.listBranches()).map((branch) => branch.stream)];
          if (campaigns.length === 0) throw new CliError(`no campaign in ${options.db}`);
          await verifyCampaigns(engine, campaigns, print, print);
        });
      }),
    );
}
