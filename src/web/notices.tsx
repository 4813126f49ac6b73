import { connectionWords, type Connection } from "./connection.js";
import type { Game } from "./game.js";
import { refusalLabel } from "./refusal.js";

/** Whether the page reaches its server, where the player looks first: at the top of the page. */
export function ConnectionBar({ connection }: { connection: Connection }) {
  const state = connection.state.value;
  return (
    <p class={`connection ${state.kind}`} data-testid="connection" data-state={state.kind} role="status">
      {connectionWords(state)}
    </p>
  );
}

/** What went wrong and is not read yet: the page's problem, and each refused command until it is dismissed. */
export function Notices({ game }: { game: Game }) {
  const notices = game.notices.value;
  return (
    <>
      {game.problem.value && (
        <p class="problem" role="alert" data-testid="problem">
          {game.problem.value}
        </p>
      )}
      {notices.length > 0 && (
        <ul class="notices" data-testid="notices">
          {notices.map((notice) => (
            <li key={notice.id} data-testid="notice">
              Your {notice.what} was not taken:{" "}
              <span data-rule={notice.verdict.kind === "rule" ? notice.verdict.rule : undefined}>
                <strong>{refusalLabel(notice.verdict)}</strong> {notice.verdict.message}
              </span>{" "}
              <button onClick={() => game.dismiss(notice.id)}>Dismiss</button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** A player's tabs: whether this one sends the seat's seeds and reveals by itself, or another tab of the seat does. */
export function ChoresNote({ game }: { game: Game }) {
  if (!game.player) return null;
  const here = game.lock.chores.value;
  return (
    <p class="chores" data-testid="chores" data-here={String(here)}>
      {here
        ? "This tab sends your dice seeds and reveals as they fall due."
        : "Another tab of yours sends your dice seeds and reveals; this one shows the campaign and takes your orders, and takes over when that tab closes."}
    </p>
  );
}
