/**
 * Epic War Engine as a library: creates the Ashfall campaign in a temporary folder, plays its first turn as both
 * players (each seat with its own secrets, the host's steps taken by a third), then prints the CVPs and the audit.
 *
 *   npx tsx examples/embed.ts            (from a checkout; in a project, import from "epic-war-engine")
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CampaignFolder, campaignTotals, examplePath, scriptedDecision, type CampaignState } from "epic-war-engine";
import { takeChoresInTurn } from "epic-war-engine/client";

const dir = await mkdtemp(join(tmpdir(), "epicwar-embed-"));
const folder = await CampaignFolder.open(join(dir, "db"));
try {
  const campaign = await folder.create(examplePath("ashfall.setup.json"));
  // One seat per party, as on three machines: each keeps its own secrets and takes its own chores.
  const seats = new Map(
    await Promise.all(
      ["host", "concord", "horde"].map(
        async (party) =>
          [party, await folder.seat(campaign, { parties: [party], secrets: join(dir, `${party}-secrets`) })] as const,
      ),
    ),
  );
  // Each seat's chores in turn, until none has any left: one seat's (a player's seed) can make another's due.
  const everyone = () => takeChoresInTurn(seats.values());
  await everyone();
  for (;;) {
    const state = (await folder.state(campaign)) as CampaignState;
    if (state.turn > 1 || state.status === "finished") break;
    const command = scriptedDecision(state);
    if (!command) throw new Error(`the campaign waits on something no seat here does (turn ${state.turn})`);
    const outcome = await seats.get(command.actor)!.submit(command);
    if (!outcome.ok) throw new Error(`${command.actor}'s ${command.type} was refused: ${outcome.refusal.message}`);
    await everyone();
  }
  const state = await folder.state(campaign);
  for (const [player, cvps] of Object.entries(campaignTotals(state)))
    console.log(`${player}: ${cvps.total} of ${cvps.target} CVPs (battles ${cvps.battles}, objectives ${cvps.objectives})`);
  const { findings } = await folder.audit(campaign);
  console.log(`turn ${state.turn}; the audit: ${findings.length ? findings.map((f) => f.detail).join("; ") : "clean"}`);
} finally {
  await folder.close();
  await rm(dir, { recursive: true, force: true });
}
