/**
 * The human at the keyboard in a campaign of Ashfall against the computer (docs/computer.md), for the CLI's tests:
 * concord's decisions as the demo's commanders would give them from its view, and its battles' results as fought on
 * the table (the demo's scripted results), given through `apply`.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import type { Table } from "../../src/client/table.js";
import type { Answer } from "../../src/engine/engine.js";
import type { BattleState, CampaignState } from "../../projections/state.js";
import { seatDecision } from "../../src/demo/seat.js";
import { scriptedResult } from "../../src/demo/results.js";
import type { PlainCommand } from "../../src/demo/plain-command.js";
import type { CampaignView } from "../../src/views/view.js";
import { ok, ROOT } from "./campaign-cli.js";

export const ASHFALL = join(ROOT, "examples", "ashfall.setup.json");
export const HUMAN = "concord";
export const COMPUTER = "horde";
/** Commands the human side gives at most in a campaign of Ashfall: far more than one takes. */
export const MAX_COMMANDS = 400;

export type HumanView = CampaignView & CampaignState;

/** The campaign as the human sees it (`state --as concord --json`). */
export const humanView = async (db: string) =>
  JSON.parse(await ok(["state", "--db", db, "--as", HUMAN, "--json"])) as HumanView;

/** The battle of this turn the human is to report: one of its own, not yet reported. */
export function unreported(state: CampaignState): BattleState | undefined {
  return Object.values(state.battles)
    .filter((b) => b.turn === state.turn && b.status === "pending")
    .find((b) => b.attacker.player === HUMAN || b.defender.player === HUMAN);
}

/**
 * The human's next command, as the demo's commanders would give it from the human's view: in the Battle phase, the
 * result of a battle fought on the table (the demo's scripted result), whichever side attacked.
 */
export function humanCommand(state: HumanView): PlainCommand | undefined {
  const battle = state.phase === "battle" ? unreported(state) : undefined;
  if (battle)
    return { actor: HUMAN, type: "ReportBattleResult", battle: battle.id, result: scriptedResult(state, battle) };
  return seatDecision(state, HUMAN);
}

/**
 * Plays the human's side through its Table to the campaign's end, polling (every `pollMs`, at most `maxPolls` times
 * per wait) while it waits on the computer, whose steps the server takes by itself; `before` is called with the state
 * before each of the human's commands. The last state.
 */
export async function playHumanSide<S extends CampaignView, O extends Answer<unknown>>(
  human: Table<S, O>,
  { pollMs, maxPolls, before }: { pollMs: number; maxPolls: number; before?: (state: HumanView) => Promise<void> },
): Promise<HumanView> {
  let state = (await human.state()) as HumanView;
  for (let given = 0; state.status !== "finished"; given++) {
    expect(given, "the campaign ends within the commands allowed").toBeLessThan(MAX_COMMANDS);
    await before?.(state);
    let command = humanCommand(state);
    for (let poll = 0; !command && state.status !== "finished"; poll++) {
      expect(poll, `the computer moves in turn ${state.turn} (${state.phase})`).toBeLessThan(maxPolls);
      await sleep(pollMs);
      await human.takeChores();
      state = (await human.state()) as HumanView;
      command = humanCommand(state);
    }
    if (!command) break;
    const outcome: O = await human.submit(command);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    await human.takeChores();
    state = (await human.state()) as HumanView;
  }
  return state;
}
