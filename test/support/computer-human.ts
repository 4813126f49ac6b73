/**
 * The human at the keyboard in a campaign of Ashfall against the computer (docs/computer.md), for the CLI's tests:
 * concord's decisions as the demo's commanders would give them from its view, and its battles' results as fought on
 * the table (the demo's scripted results), given through `apply`.
 */
import { join } from "node:path";
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
