/**
 * Kill -9 soak of the players' secrets (slow tier; `npm run build` first). `epicwar apply` and `epicwar demo` are
 * killed with SIGKILL at random moments, some of them the instant a secrets file's temporary copy appears (inside the
 * secrets write). After every kill the campaign must be able to go on: the chain verifies, every commitment the log
 * holds whose secret is still owed has that secret on disk (no lost order, no lost seed, so no stuck turn), and the
 * next command of the demo's scripted commanders, applied without a kill, is accepted.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, watch } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CampaignState } from "../../projections/state.js";
import { turnToStart, turnUnderWay } from "../../projections/turns.js";
import { FileSecrets } from "../../src/client/secrets.js";
import { orderCommitment, seedCommitment } from "../../src/crypto/commitments.js";
import { nextDecision } from "../../src/demo/play.js";
import { seededRandom } from "../../src/demo/rng.js";
import { Engine } from "../../src/engine/engine.js";
import { verifyStream } from "../../src/log/index.js";
import { CLI, runCli, show } from "../support/cli.js";
import { ROOT, scratchDir } from "../support/campaign-cli.js";

const KILLS = Number(process.env["SOAK_KILLS"] ?? 60);
const CAMPAIGN = "ashfall";

/** Runs the CLI and kills it with SIGKILL after `delayMs`, or as soon as a temporary secrets file appears. */
function killed(
  args: string[],
  input: string,
  secretsDir: string,
  kill: { delayMs: number; onTemp: boolean },
): Promise<{ signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["pipe", "ignore", "ignore"] });
    child.stdin.end(input);
    mkdirSync(secretsDir, { recursive: true });
    const watcher = kill.onTemp
      ? watch(secretsDir, { recursive: true }, (_event, name) => name?.endsWith(".tmp") && child.kill("SIGKILL"))
      : undefined;
    const timer = setTimeout(() => child.kill("SIGKILL"), kill.delayMs);
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      clearTimeout(timer);
      watcher?.close();
      resolve({ signal });
    });
  });
}

/** Every secret the log commits to and has not yet been revealed, read back from the parties' files. */
async function owedSecretsHeld(state: CampaignState, secrets: FileSecrets): Promise<string[]> {
  const lost: string[] = [];
  const turn = state.turnState;
  if (turn && turnUnderWay(state)) {
    const host = await secrets.hostSeed(state.turn);
    if (!host || seedCommitment(host) !== turn.hostSeedHash) lost.push(`host seed of turn ${state.turn}`);
    for (const [player, hash] of Object.entries(turn.playerSeedHashes)) {
      if (turn.playerSeeds[player] !== undefined) continue;
      const seed = await secrets.playerSeed(player, state.turn);
      if (!seed || seedCommitment(seed) !== hash) lost.push(`${player}'s seed of turn ${state.turn}`);
    }
    for (const activation of Object.values(turn.activations)) {
      if (activation.order !== null) continue;
      const held = await secrets.order(activation.player, state.turn, activation.army);
      const matches =
        held &&
        orderCommitment({ campaign: state.campaign!, turn: state.turn, army: activation.army, ...held }) ===
          activation.commitment;
      if (!matches) lost.push(`${activation.player}'s order for ${activation.army} in turn ${state.turn}`);
    }
  } else {
    const next = turnToStart(state);
    for (const [player, hash] of Object.entries(state.seedCommitments)) {
      const seed = await secrets.playerSeed(player, next);
      if (!seed || seedCommitment(seed) !== hash) lost.push(`${player}'s seed of turn ${next}`);
    }
  }
  return lost;
}

async function campaignNow(
  db: string,
): Promise<{ state: CampaignState; chain: Awaited<ReturnType<typeof verifyStream>> }> {
  const engine = await Engine.open(db, { createIfMissing: false });
  try {
    return { state: await engine.state(CAMPAIGN), chain: await verifyStream(engine.store, CAMPAIGN) };
  } finally {
    await engine.close();
  }
}

const commandLine = (state: CampaignState) => {
  const next = nextDecision(state);
  return next ? `${JSON.stringify(next)}\n` : "";
};

describe("secrets survive kill -9", () => {
  it(
    `T5 D1 apply and demo killed ${KILLS} times at random points: no lost secret, no stuck turn`,
    { timeout: 600_000 },
    async () => {
      const seed = Number(process.env["SOAK_SEED"] ?? Math.floor(Math.random() * 2 ** 32));
      console.log(`secrets soak seed ${seed} (repeat with SOAK_SEED=${seed})`);
      const random = seededRandom(String(seed)); // a failing run repeats with SOAK_SEED
      const root = await scratchDir("epicwar-soak-");
      let db = "";
      let games = 0;
      let insideWrite = 0;

      for (let kill = 1; kill <= KILLS; kill++) {
        const useDemo = db === "" || kill % 4 === 0;
        const onTemp = random() < 0.6;
        if (useDemo) db = join(root, `war${++games}`);
        const secretsDir = `${db}-secrets`;
        const context = `seed ${seed}, kill ${kill} (${useDemo ? "demo" : "apply"}${onTemp ? ", at a secrets write" : ""})`;
        const delayMs = Math.floor(random() * (useDemo ? 1500 : 700));
        if (useDemo) {
          await killed(["demo", "--db", db], "", secretsDir, { delayMs, onTemp });
        } else {
          const { state } = await campaignNow(db);
          await killed(["apply", "--db", db, "-"], commandLine(state), secretsDir, { delayMs, onTemp });
        }
        if (!existsSync(join(db, "CURRENT"))) {
          db = "";
          continue; // killed before the database was created: nothing to check
        }
        const folder = join(secretsDir, CAMPAIGN);
        if (existsSync(folder) && readdirSync(folder).some((name) => name.endsWith(".tmp"))) insideWrite++;

        const { state, chain } = await campaignNow(db).catch(() => ({ state: undefined, chain: undefined }));
        if (!state?.campaign) {
          db = "";
          continue; // killed before the set-up was written: the folder holds no campaign
        }
        expect(chain, context).toMatchObject({ ok: true });
        expect(await owedSecretsHeld(state, new FileSecrets(secretsDir, CAMPAIGN)), `${context}: lost secrets`).toEqual(
          [],
        );

        // The campaign goes on: the chores the kill interrupted are taken, and the next decision is accepted.
        const resumed = await runCli(["apply", "--db", db, "-"], state.status === "finished" ? "" : commandLine(state));
        expect(resumed.code, `${context}: ${show(resumed)}`).toBe(0);
        expect(
          readdirSync(folder).filter((name) => name.endsWith(".tmp")),
          `${context}: stale temporary files are cleaned up`,
        ).toEqual([]);
        if ((await campaignNow(db)).state.status === "finished") db = "";
      }
      console.log(`secrets soak: ${KILLS} kills over ${games} campaigns, ${insideWrite} inside a secrets write`);
      expect(insideWrite, `seed ${seed}: some kills landed inside a secrets write`).toBeGreaterThan(0);
    },
  );
});
