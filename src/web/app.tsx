import { useEffect, useState } from "preact/hooks";
import { ActionPanel } from "./action-panel.js";
import { BattlePanel } from "./battle-panel.js";
import { EndPanel } from "./end-panel.js";
import type { Game } from "./game.js";
import { HistoryPanel } from "./history-panel.js";
import { Scoreboard } from "./scoreboard.js";
import { SecretsPanel } from "./secrets-panel.js";

type Tab = "play" | "history";

/** The page of a seat: the campaign now (map, scoreboard, the phase's panel), or its history. */
export function App({ game }: { game: Game }) {
  const [tab, setTab] = useState<Tab>("play");
  useEffect(() => game.follow(), [game]);
  const view = game.view.value;
  if (!view) return <p>Loading the campaign…</p>;
  return (
    <>
      <Scoreboard view={view} seat={game.seat.seat} />
      {game.problem.value && (
        <p class="problem" role="alert">
          {game.problem.value}
        </p>
      )}
      <nav>
        <button class={tab === "play" ? "selected" : ""} onClick={() => setTab("play")}>
          The campaign now
        </button>
        <button class={tab === "history" ? "selected" : ""} data-testid="history-tab" onClick={() => setTab("history")}>
          History and audit
        </button>
      </nav>
      {tab === "play" ? (
        <main>
          <ActionPanel game={game} />
          <BattlePanel game={game} />
          {view.phase === "end" && <EndPanel game={game} />}
          <section class="recent" data-testid="recent">
            <h2>Latest events</h2>
            <ol>
              {game.recent.value.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ol>
          </section>
          <SecretsPanel game={game} />
        </main>
      ) : (
        <HistoryPanel game={game} />
      )}
    </>
  );
}
