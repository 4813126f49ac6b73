import { useEffect, useState } from "preact/hooks";
import { ActionPanel } from "./action-panel.js";
import { BattlePanel } from "./battle-panel.js";
import { EndPanel } from "./end-panel.js";
import { HistoryPanel } from "./history-panel.js";
import { forReaders } from "./names.js";
import { NotifyButton } from "./notify-button.js";
import { owedBy, useYourTurn } from "./your-turn.js";
import type { Lines } from "./lines.js";
import { OrganiserPanel } from "./organiser-panel.js";
import { ChoresNote, ConnectionBar, Notices } from "./notices.js";
import { Scoreboard } from "./scoreboard.js";
import { SecretsPanel } from "./secrets-panel.js";

type Tab = "play" | "history";

/** The page of a seat: the campaign now (map, scoreboard, the phase's panel), or its history; on a line of it. */
export function App({ lines }: { lines: Lines }) {
  const [tab, setTab] = useState<Tab>("play");
  const game = lines.game.value!;
  useEffect(() => game.follow(), [game]);
  const view = game.view.value;
  useYourTurn(owedBy(game.waiting.value, game.seat.seat), view?.setup?.name ?? game.seat.campaign);
  if (!view)
    return (
      <main>
        <ConnectionBar connection={game.connection} />
        <Notices game={game} />
        <p>Loading the campaign…</p>
        <SecretsPanel game={game} />
      </main>
    );
  return (
    <div class={`page ${tab}`}>
      <header class="top">
        <ConnectionBar connection={game.connection} />
        <Scoreboard view={view} seat={game.seat.seat} computer={game.seat.computer} />
        {game.branch !== undefined && (
          <p class="line" data-testid="line">
            Playing the branch <strong>{game.branch}</strong>, a what-if: the campaign&#39;s own line is left as it is.{" "}
            <button onClick={() => void lines.play()}>Back to the main line</button>
          </p>
        )}
        <Notices game={game} />
        <nav aria-label="Views of the campaign">
          <button class={tab === "play" ? "selected" : ""} aria-pressed={tab === "play"} onClick={() => setTab("play")}>
            The campaign now
          </button>
          <button
            class={tab === "history" ? "selected" : ""}
            aria-pressed={tab === "history"}
            data-testid="history-tab"
            onClick={() => setTab("history")}
          >
            History and audit
          </button>
        </nav>
      </header>
      {tab === "play" ? (
        <main>
          <ActionPanel game={game}>
            <BattlePanel game={game} />
            {view.phase === "end" && <EndPanel game={game} />}
            <OrganiserPanel game={game} />
            <section class="recent" data-testid="recent">
              <h2>Latest events</h2>
              <ol>
                {game.recent.value.map((line) => (
                  <li key={line}>{forReaders(line, view)}</li>
                ))}
              </ol>
            </section>
            <ChoresNote game={game} />
            {game.player && <NotifyButton />}
            <SecretsPanel game={game} />
          </ActionPanel>
        </main>
      ) : (
        <main>
          <HistoryPanel game={game} onPlay={(branch) => void lines.play(branch).then(() => setTab("play"))} />
        </main>
      )}
    </div>
  );
}
