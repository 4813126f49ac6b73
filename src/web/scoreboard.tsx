import { campaignTotals } from "../../projections/derived.js";
import { nextActivator } from "../rules/action-common.js";
import type { CampaignState } from "../../projections/state.js";
import type { CampaignView } from "../views/view.js";
import { waitingFor } from "../words/waiting.js";
import { sideWords } from "./map-words.js";

/**
 * E2, S3: each side's CVPs with their parts, the target, the turn and phase, the winner; and what the campaign waits
 * for. The side the computer plays, if any, says so.
 */
export function Scoreboard({ view, seat, computer }: { view: CampaignView; seat: string; computer?: string | null }) {
  const setup = view.setup!;
  const totals = campaignTotals(view);
  const turn = view.turnState;
  const winner = view.result ? setup.players.find((p) => p.id === view.result!.winner) : undefined;
  const name = (player: string) => sideWords(view, player, seat);
  const next = view.phase === "action" && turn?.first ? nextActivator(view as unknown as CampaignState) : null;
  return (
    <div class="scoreboard" data-testid="scoreboard">
      <div class="scoreboard-words">
        <h1>
          {setup.name} <small>as {seat}</small>
        </h1>
        <p data-testid="moment">
          {view.status === "finished"
            ? `Campaign over in turn ${view.result?.turn}: ${winner ? `${winner.name} win` : "a draw"}`
            : view.turn === 0
              ? "Set-up"
              : `Turn ${view.turn}, ${view.phase} phase`}
          {" · "}target {setup.cvpTarget} CVPs
        </p>
        {turn && view.status === "active" && (
          <p>
            Initiative: {turn.initiativeWinner ? name(turn.initiativeWinner) : "not rolled yet"}
            {turn.first
              ? `; ${name(turn.first)} ${Object.keys(turn.activations).length > 0 ? "activated" : "activates"} first`
              : ""}
            {next ? `; next to activate: ${name(next)}` : ""}
          </p>
        )}
        <p class="waiting" data-testid="waiting">
          Waiting for {waitingFor(view)}
        </p>
      </div>
      <table>
        <thead>
          <tr>
            <th>side</th>
            <th>CVPs</th>
            <th>battles</th>
            <th>objectives</th>
            <th>home base</th>
          </tr>
        </thead>
        <tbody>
          {setup.players.map((p) => (
            <tr key={p.id} data-side={p.id} class={p.id === seat ? "own" : ""}>
              <td>
                {p.name}
                {p.id === computer && <small data-testid="computer-side"> (played by the computer)</small>}
              </td>
              <td data-testid={`cvps-${p.id}`}>{totals[p.id]?.total}</td>
              <td>{totals[p.id]?.battles}</td>
              <td>{totals[p.id]?.objectives}</td>
              <td>{totals[p.id]?.homeBase}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
