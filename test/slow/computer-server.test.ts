/**
 * A campaign of Ashfall against the computer through the server (docs/computer.md, docs/server.md): created by
 * POST /campaigns with a computer seat, the human's commands given by a Table over RemoteCampaign, the computer's
 * steps taken by the server as its chore; played to a winner, the computer's side auditing clean.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { FileSecrets } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table } from "../../src/client/table.js";
import { runInProcess, show } from "../support/cli.js";
import { COMPUTER, HUMAN, playHumanSide } from "../support/computer-human.js";
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "../remote/served-ashfall.js";

/** Polls for the computer's steps at most this many times per wait, POLL_MS apart: some 60 seconds. */
const MAX_POLLS = 2_400;
const POLL_MS = 25;

async function playAgainst(level: string) {
  const served = await serveAshfall({ computer: { seat: COMPUTER, level, thinkMs: 20 } });
  const { url, campaign, invites, folders } = served;
  try {
    expect(Object.keys(invites).sort()).toEqual(["concord", "host"]);
    const secrets = await tempDir("epicwar-human-");
    const joined = await runInProcess(["join", `${url}/join#${invites[HUMAN]}`, "--secrets", secrets]);
    expect(joined.code, show(joined)).toBe(0);
    const { token } = JSON.parse(await readFile(join(secrets, campaign, ".token.json"), "utf8")) as { token: string };
    const human = new Table(new RemoteCampaign(new ServerConnection(url, token)), campaign, {
      parties: new Set([HUMAN]),
      secrets: new FileSecrets(secrets, campaign),
      random: sequenceRandomHex("human-against-the-server's-computer"),
    });
    // The campaign waits on the computer: the server takes its steps after the human's command, by itself.
    const state = await playHumanSide(human, { pollMs: POLL_MS, maxPolls: MAX_POLLS });
    return { state, events: await served.engine.store.readAll(campaign), folders };
  } finally {
    await served.close();
  }
}

describe("a campaign against the computer, through the server", () => {
  for (const level of ["scripted", "searching"])
    it(`plays to a winner against the ${level} level, the server taking the computer's steps`, async () => {
      const { state, events, folders } = await playAgainst(level);
      expect(state.result).not.toBeNull();
      const computerEvents = events.filter((e) => e.actor === COMPUTER);
      for (const type of ["SeatKeyRegistered", "PlayerSeedCommitted", "ArmyActivated", "OrderRevealed"])
        expect(computerEvents.map((e) => e.type)).toContain(type);
      // Its secrets are in the server's folder, apart from the host's.
      expect(await readdir(join(folders[2]!, "computer", state.campaign!))).toContain(`${COMPUTER}.json`);
      expect(await readdir(join(folders[1]!, state.campaign!))).not.toContain(`${COMPUTER}.json`);
      const audit = await runInProcess(["audit", "--db", folders[0]!]);
      expect(audit.code, show(audit)).toBe(0);
      expect(audit.stdout).not.toMatch(/violation|breach|mismatch/i);
    }, 180_000);
});
