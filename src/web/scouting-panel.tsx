import { useState } from "preact/hooks";
import { advancedRule } from "../../projections/advanced.js";
import { BLUFF_MARGIN, type ScoutingState } from "../../projections/scouting.js";
import type { ArmyState } from "../../projections/state.js";
import { pts } from "../rules/refusal.js";
import type { CampaignView } from "../views/view.js";
import { ActionForm } from "./action-form.js";
import { asNumber, FieldError } from "./fields.js";
import type { Game, Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";

/**
 * A3 on the seat's page: this turn's scoutings as it may see them, and its part in them: scouting an enemy army with
 * one of its armies about to activate (the Advance revealed by the page, its salt kept for the activation), answering
 * a scouting of its own army (with First Fire revealed or not), and stating a scouted army's size within the band.
 * Each refusal is shown on the row it concerns.
 */
export function ScoutingPanel({ game, armies }: { game: Game; armies: readonly ArmyState[] }) {
  const view = game.view.value!;
  const player = game.player;
  if (!player || !advancedRule(view.setup!.options, "scouting")) return null;
  const scoutings = Object.values(view.turnState?.scouting?.scoutings ?? {});
  const enemies = Object.values(view.armies).filter((a) => a.player !== player && a.status === "active" && a.at);
  const name = (army: string) => view.armies[army]?.name ?? army;
  return (
    <div class="scouting" data-testid="scouting">
      {scoutings.length > 0 && (
        <ul class="scoutings">
          {scoutings.map((s) => (
            <li key={s.id} data-scouting={s.id}>
              A3 {s.id}: {name(s.army)} scouts {name(s.target)}: {s.band ? `band ${s.band}` : "to be rolled"}
              {s.statedPoints === null ? "" : `, stated ${pts(s.statedPoints)} pts`}
              {s.targetPlayer === player && <ScoutedPart game={game} view={view} scouting={s} />}
            </li>
          ))}
        </ul>
      )}
      {armies.length > 0 && enemies.length > 0 && (
        <ActionForm
          game={game}
          title="A3: scout an enemy army (reveals this army's Advance)"
          type="ScoutArmy"
          fields={[
            { name: "army", label: "Your army", choices: armies.map((a) => ({ value: a.id, label: a.name })) },
            { name: "target", label: "Enemy army", choices: enemies.map((a) => ({ value: a.id, label: a.name })) },
          ]}
          build={(v) => ({ army: v["army"], target: v["target"] })}
        />
      )}
    </div>
  );
}

/**
 * The scouted player's part of a scouting: its answer (First Fire revealed or not), then the size it states. Each has
 * its own field and refusal: the answer's command may still be finishing (its refresh, the seat's chores) when the
 * size's field shows, and its end must not touch what the player is typing there.
 */
function ScoutedPart({ game, view, scouting }: { game: Game; view: CampaignView; scouting: ScoutingState }) {
  if (scouting.scoutedBonus === null) return <ScoutingAnswer game={game} scouting={scouting} />;
  if (scouting.band === null || scouting.statedPoints !== null) return null;
  return <StatedSize game={game} view={view} scouting={scouting} />;
}

function ScoutingAnswer({ game, scouting }: { game: Game; scouting: ScoutingState }) {
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const answer = async (firstFire: boolean) =>
    setVerdict((await game.submit({ scouting: scouting.id, type: "AnswerScouting", firstFire })) ?? null);
  return (
    <span class="scouted" data-testid={`answer-${scouting.id}`}>
      {" "}
      Your answer: <button onClick={() => void answer(true)}>Reveal First Fire (+2; binds the army to it)</button>{" "}
      <button onClick={() => void answer(false)}>Reveal nothing</button>
      <RefusalNote verdict={verdict} />
    </span>
  );
}

function StatedSize({ game, view, scouting }: { game: Game; view: CampaignView; scouting: ScoutingState }) {
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [points, setPoints] = useState("");
  const own = view.armies[scouting.target]?.points;
  // Shown only once the band is rolled (ScoutedPart).
  const margin = BLUFF_MARGIN[scouting.band!];
  const send = async (stated: number) => {
    const refusal = await game.submit({ scouting: scouting.id, type: "StateArmySize", points: stated });
    setVerdict(refusal ?? null);
    if (!refusal) setPoints("");
  };
  const state = (event: Event) => {
    event.preventDefault();
    try {
      void send(asNumber({ points }, "points"));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      setVerdict({ kind: "field", field: error.field, message: error.message });
    }
  };
  return (
    <form class="scouted" data-testid={`state-size-${scouting.id}`} onSubmit={state}>
      {" "}
      <label>
        Size to state ({typeof own === "number" ? `your army has ${pts(own)} pts; ` : ""}
        {margin === 0 ? "the true size" : `within ${pts(margin)} of it`}){" "}
        <input name="points" value={points} onInput={(e) => setPoints(e.currentTarget.value)} />
      </label>{" "}
      <button type="submit">State the size</button>
      <RefusalNote verdict={verdict} />
    </form>
  );
}
