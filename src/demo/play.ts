import { HOST } from "../../events/common.js";
import type { CurrentEvent, StoredEvent } from "../../events/index.js";
import { toCurrent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { Table } from "../client/table.js";
import type { CampaignView } from "../views/view.js";
import { unactivatedArmies } from "../rules/action-common.js";
import { describeRefusal } from "../rules/refusal.js";
import { describeEvent } from "../words/events.js";
import { waitingFor } from "../words/waiting.js";
import { nextEndPhaseCommand } from "./reserves.js";
import { scriptedResult } from "./results.js";
import type { PlainCommand } from "./plain-command.js";
import { nextActivation, recommitment } from "./strategy.js";
import { nextKitDecision } from "./battle-kit.js";

/** The demo players' next decision, or undefined when the campaign waits on nobody's decision. */
export function nextDecision(state: CampaignState): PlainCommand | undefined {
  const turn = state.turnState;
  if (state.status !== "active" || !turn) return undefined;
  const kitDecision = state.phase === "end" ? undefined : nextKitDecision(state);
  if (kitDecision) return kitDecision;
  if (state.phase === "action") {
    const again = recommitment(state);
    if (again) return again;
    if (turn.initiativeWinner && !turn.first)
      return { actor: turn.initiativeWinner, type: "ChooseFirst", first: turn.initiativeWinner };
    if (!turn.first) return undefined;
    return nextActivation(state) ?? closeWhenNoneLeft(state);
  }
  if (state.phase === "battle") {
    const battle = Object.values(state.battles)
      .filter((b) => b.turn === state.turn && b.status !== "resolved")
      .sort((a, b) => a.index - b.index)[0];
    if (!battle) return undefined;
    if (battle.status === "pending") {
      return {
        actor: battle.attacker.player,
        type: "ReportBattleResult",
        battle: battle.id,
        result: scriptedResult(state, battle),
      };
    }
    const confirmer = battle.report!.by === battle.attacker.player ? battle.defender.player : battle.attacker.player;
    return { actor: confirmer, type: "ConfirmBattleResult", battle: battle.id };
  }
  const player = state.setup!.players.map((p) => p.id).find((p) => !turn.endPhaseDone.includes(p));
  return player ? nextEndPhaseCommand(state, player) : undefined;
}

/**
 * T5: an Action phase ends with the last reveal; one in which no army is left to activate or reveal (every one routed
 * or disbanded) is ended by the host.
 */
function closeWhenNoneLeft(state: CampaignState): PlainCommand | undefined {
  const activations = Object.values(state.turnState!.activations);
  if (unactivatedArmies(state).length > 0 || activations.some((a) => a.order === null)) return undefined;
  return { actor: HOST, type: "CloseActionPhase" };
}

/**
 * Prints events as an account of the campaign, a heading for each turn; `describe` says each in words (as stored by
 * default; a player's view of them for `demo --as`).
 */
export function accountPrinter(
  print: (line: string) => void,
  describe: (event: CurrentEvent) => string = describeEvent,
): (events: StoredEvent[]) => void {
  return (events) => {
    for (const event of events.map(toCurrent)) {
      if (event.type === "TurnStarted") print(`\n== Turn ${event.data.turn} ==`);
      print(`  ${describe(event)}`);
    }
  };
}

/** How a finished campaign ended, in a sentence: who won in which turn, or a draw. */
export function campaignResult(state: CampaignView): string {
  const { winner, turn } = state.result!;
  return winner
    ? `${state.setup!.players.find((p) => p.id === winner)!.name} win the campaign in turn ${turn}.`
    : `The campaign ends in a draw in turn ${turn}.`;
}

/** Plays the campaign at the table with the demo's scripted commanders until it is won or `maxTurns` have passed. */
export async function playCampaign(
  table: Table,
  print: (line: string) => void,
  maxTurns: number,
): Promise<CampaignState> {
  const account = accountPrinter(print);
  await table.takeChores(account);
  for (;;) {
    const state = await table.state();
    if (state.status === "finished" || state.turn > maxTurns) return state;
    const command = nextDecision(state);
    if (!command) throw new Error(`the demo is stuck: the campaign waits for ${waitingFor(state)}`);
    const outcome = await table.submit(command, account);
    if (!outcome.ok)
      throw new Error(
        `the demo's ${command.type} by ${command.actor} was refused: ${describeRefusal(outcome.refusal)}`,
      );
  }
}
