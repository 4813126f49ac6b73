import { useState } from "preact/hooks";
import { HOST } from "../../events/common.js";
import type { WaitingOn } from "../rules/waiting-on.js";
import { describeWaitingOn } from "../words/waiting.js";
import { ActionForm } from "./action-form.js";
import { asDeadline } from "./fields.js";
import type { Game, Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";
import { forReaders } from "./names.js";
import { SeatsPanel, WebhooksPanel } from "./organiser-seats.js";
import type { CampaignView } from "../views/view.js";

/**
 * The organiser's tools (docs/rulings.md O1, O2, T5 stall), on the host's page: the notice of who has not acted, the
 * pause and the resume, the Action phase's deadline, and the close of a stalled phase, with who it waited on.
 */
export function OrganiserPanel({ game }: { game: Game }) {
  const view = game.view.value!;
  const waiting = game.waiting.value;
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  if (game.seat.seat !== HOST || view.status !== "active") return null;
  const send = async (command: Record<string, unknown>) => setVerdict((await game.submit(command)) ?? null);
  const claim = view.turnState?.stallClaim;
  return (
    <section class="organiser" data-testid="organiser">
      <h2>The organiser</h2>
      {waiting && <WaitingNotice waiting={waiting} view={view} />}
      {view.paused ? (
        <p>
          <button data-testid="resume" onClick={() => send({ type: "ResumeCampaign" })}>
            Resume the campaign (O1)
          </button>
        </p>
      ) : (
        <ActionForm
          game={game}
          title="O1: pause the campaign"
          type="PauseCampaign"
          fields={[{ name: "reason", label: "Reason (optional)" }]}
          build={(v) => (v["reason"]?.trim() ? { reason: v["reason"].trim() } : {})}
        />
      )}
      {view.phase === "action" && view.turnState && (
        <>
          <ActionForm
            game={game}
            title={`O2: ${view.turnState.actionDeadline ? "move" : "set"} the Action phase's deadline`}
            type="SetActionDeadline"
            fields={[{ name: "at", label: "Deadline (your local time)", input: "datetime-local" }]}
            build={(v) => ({ at: asDeadline(v, "at") })}
          />
          <p>
            {claim
              ? forReaders(
                  `T5: ${claim.by} claimed the stall (seq ${claim.seq}), waiting on ${claim.owed.map((item) => `${item.army}'s ${item.owes} (${item.player})`).join(", ")}. `,
                  view,
                )
              : ""}
            <button data-testid="close-action-phase" onClick={() => send({ type: "CloseActionPhase" })}>
              Close the Action phase
            </button>{" "}
            (once every army is activated, after a claimed stall, or past the deadline: what is still owed is then
            recorded, and the armies not activated stay where they are)
          </p>
        </>
      )}
      <RefusalNote verdict={verdict} />
      <SeatsPanel game={game} />
      <WebhooksPanel game={game} />
      {game.closes.value.length > 0 && (
        <ul data-testid="closes">
          {game.closes.value.map((line) => (
            <li key={line}>{forReaders(line, view)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Who has not acted: per party, what the campaign waits on and the command that gives it; the pause, the deadline. */
function WaitingNotice({ waiting, view }: { waiting: WaitingOn; view: CampaignView }) {
  const idle = Object.entries(waiting.parties).filter(([, items]) => items.length > 0);
  return (
    <div class="notice" data-testid="waiting-notice">
      <p>
        {idle.length === 0
          ? "Nobody owes anything now."
          : forReaders(`Not acted yet: ${idle.map(([party]) => party).join(" and ")}.`, view)}
      </p>
      <ul>
        {describeWaitingOn(waiting, new Date()).map((line) => (
          <li key={line}>{forReaders(line, view)}</li>
        ))}
      </ul>
    </div>
  );
}
