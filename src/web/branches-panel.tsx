import { useEffect, useState } from "preact/hooks";
import { HOST } from "../../events/common.js";
import type { Lines, LineDiff } from "../../replays/as-seen.js";
import { RemoteCampaign } from "../client/remote.js";
import type { CampaignView } from "../views/view.js";
import { waitingFor } from "../words/waiting.js";
import { problemWords } from "./connection.js";
import type { Game, Verdict } from "./game.js";
import { ForecastPanel } from "./forecast-panel.js";
import { MAIN } from "./lines.js";
import { MapPanel } from "./map-panel.js";
import { RefusalNote } from "./refusal.js";

/**
 * What-if: the campaign's lines (its own and its branches), each's diff against the main line and its map now; the
 * organiser creates a branch at the moment on screen; the odds of the line played, or of a branch against the main line.
 */
export function BranchesPanel({
  game,
  seq,
  onPlay,
}: {
  game: Game;
  seq: number | undefined;
  onPlay: (branch: string) => void;
}) {
  const [lines, setLines] = useState<Lines | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [diff, setDiff] = useState<LineDiff | null>(null);
  const [branchView, setBranchView] = useState<CampaignView | null>(null);
  const [name, setName] = useState("");
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const { campaign } = game.seat;
  const base = `/campaigns/${encodeURIComponent(campaign)}`;
  const reload = () => game.server.read<Lines>(`${base}/branches`).then(setLines, game.report);
  useEffect(() => void reload(), [game.version.value]);
  useEffect(() => {
    if (!shown) return;
    const query = new URLSearchParams({ a: MAIN, b: shown });
    void game.server.read<LineDiff>(`${base}/diff?${query}`).then(setDiff, game.report);
    void new RemoteCampaign(game.server, shown).state(campaign).then(setBranchView, game.report);
  }, [shown, game.version.value]);

  const create = async (event: Event) => {
    event.preventDefault();
    const from = game.branch === undefined ? {} : { from: game.branch };
    let answer: Awaited<ReturnType<typeof game.server.send>>;
    try {
      answer = await game.server.send("POST", `${base}/branches`, { name, seq, ...from });
    } catch (error) {
      setVerdict({ kind: "unanswered", message: problemWords(error) });
      return;
    }
    const body = (answer.body ?? {}) as { field?: string; message?: string; rule?: string };
    if (answer.status === 201) {
      setVerdict(null);
      await reload();
      setShown(name);
      return;
    }
    setVerdict({ kind: "field", field: body.field ?? "name", message: body.message ?? `refused (${answer.status})` });
  };

  return (
    <section class="branches" data-testid="branches">
      <h2>What-if: branches</h2>
      {game.seat.seat === HOST && seq !== undefined && (
        <form onSubmit={create} data-testid="create-branch">
          <label>
            New branch after event #{seq}, named{" "}
            <input name="branch" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>{" "}
          <button type="submit">Create the branch</button>
          <RefusalNote verdict={verdict} />
        </form>
      )}
      {lines && lines.branches.length === 0 && <p>This campaign has no branches yet.</p>}
      <ul>
        {lines?.branches.map((branch) => (
          <li key={branch.name}>
            <button class={shown === branch.name ? "selected" : ""} onClick={() => setShown(branch.name)}>
              {branch.name}
            </button>{" "}
            forks {branch.parent} after #{branch.forkSeq} ({branch.forkPlace}); {branch.own} event(s) of its own{" "}
            {game.branch !== branch.name && (
              <button data-play-branch={branch.name} onClick={() => onPlay(branch.name)}>
                Play on this branch
              </button>
            )}
          </li>
        ))}
      </ul>
      {shown && diff && (
        <div data-testid="diff">
          <h3>
            {shown} against {MAIN}
          </h3>
          {diff.differences.length === 0 ? (
            <p>No difference yet: the branch is where the main line was at its fork.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>what</th>
                  <th>{MAIN}</th>
                  <th>{shown}</th>
                </tr>
              </thead>
              <tbody>
                {diff.differences.map((d) => (
                  <tr key={d.what}>
                    <td>{d.what}</td>
                    <td>{d.a}</td>
                    <td>{d.b}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {branchView && (
            <>
              <p>The branch waits for {waitingFor(branchView)}.</p>
              <MapPanel view={branchView} viewer={game.player} heldOrders={{}} />
            </>
          )}
        </div>
      )}
      <ForecastPanel game={game} branches={lines?.branches.map((branch) => branch.name) ?? []} />
    </section>
  );
}
