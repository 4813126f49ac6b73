/**
 * A campaign of Ashfall against the computer through the CLI, at each level (docs/computer.md): `new --computer`,
 * the human's commands by `apply` with the computer's steps after each, to a winner; the computer's side gave its own
 * steps with its own key and secrets, and the audit finds nothing wrong.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ok, parseLog, scratchDir } from "../support/campaign-cli.js";
import { ASHFALL, COMPUTER, humanCommand, humanView, MAX_COMMANDS } from "../support/computer-human.js";

async function playAgainst(level: string) {
  const dir = await scratchDir("epicwar-computer-");
  const db = join(dir, "war");
  const created = await ok([
    "new",
    "--db",
    db,
    "--setup",
    ASHFALL,
    "--computer",
    `${COMPUTER}:${level}`,
    "--think",
    "20",
  ]);
  expect(created).toContain(`The computer plays ${COMPUTER} (${level})`);
  let state = await humanView(db);
  for (let given = 0; state.status !== "finished"; given++) {
    expect(given, "the campaign ends within the commands allowed").toBeLessThan(MAX_COMMANDS);
    const command = humanCommand(state);
    expect(command, `the campaign waits on the human in turn ${state.turn} (${state.phase})`).toBeDefined();
    await ok(["apply", "--db", db, "-"], `${JSON.stringify(command)}\n`);
    state = await humanView(db);
  }
  return { db, state, log: await ok(["log", "--db", db, "--json"]) };
}

describe("a campaign against the computer, through the CLI", () => {
  for (const level of ["scripted", "searching"])
    it(`plays to a winner against the ${level} level, the computer's side acting for itself and auditing clean`, async () => {
      const { db, state, log } = await playAgainst(level);
      expect(state.result).not.toBeNull();
      const events = parseLog(log);
      // The computer gave its own seat's decisions and chores, signed with a key of its own.
      const computerEvents = events.filter((e) => e.actor === COMPUTER);
      for (const type of [
        "SeatKeyRegistered",
        "PlayerSeedCommitted",
        "ArmyActivated",
        "OrderRevealed",
        "BattleResolved",
      ])
        expect(computerEvents.map((e) => e.type)).toContain(type);
      expect(await readdir(join(db + "-computer", state.campaign!))).toContain(`${COMPUTER}.json`);
      expect(await readdir(join(db + "-secrets", state.campaign!))).not.toContain(`${COMPUTER}.json`);
      const audit = await cli(["audit", "--db", db]);
      expect(audit.code, audit.stdout + audit.stderr).toBe(0);
      expect(audit.stdout).not.toMatch(/violation|breach|mismatch/i);
    }, 120_000);
});
