import { useState } from "preact/hooks";
import type { BattleOutcome, BattleResult, SideResult } from "../../events/common.js";
import { battleEngagement } from "../../projections/derived.js";
import { terrainAt } from "../../projections/grid.js";
import { sq } from "../rules/refusal.js";
import { HIDDEN, type CampaignView } from "../views/view.js";
import { ORDER_NAMES } from "../words/orders.js";
import { terrainGuide } from "../words/terrain-guide.js";
import type { Game, Verdict } from "./game.js";
import { ConfirmForm } from "./confirm-form.js";
import { formationsOf, ResultFields, ROLES, useResultEntry, type Battle, type Role } from "./result-entry.js";

const points = (value: unknown) => (typeof value === "number" ? value.toLocaleString("en") : "?");

/** The Battle phase: each battle of the turn with its sheet, and the result form of the one to fight now. */
export function BattlePanel({ game }: { game: Game }) {
  const view = game.view.value!;
  const battles = Object.values(view.battles)
    .filter((battle) => battle.turn === view.turn)
    .sort((a, b) => a.index - b.index);
  if (battles.length === 0) return null;
  const next = battles.find((battle) => battle.status !== "resolved");
  return (
    <section class="battles">
      <h2>Battles of turn {view.turn}</h2>
      {battles.map((battle) => (
        <article key={battle.id} class="battle-sheet" data-battle={battle.id}>
          <BattleSheet view={view} battle={battle} />
          {view.phase === "battle" && battle === next && <ResultForm game={game} battle={battle} />}
        </article>
      ))}
    </section>
  );
}

/** B1-B3: where, who against whom with which orders, the engagement effects, the size and the VPs to win. */
export function BattleSheet({ view, battle }: { view: CampaignView; battle: Battle }) {
  const { map } = view.setup!;
  const onRoad = map.roads.some(([x, y]) => x === battle.at[0] && y === battle.at[1]);
  const effects = battleEngagement(battle);
  const side = (role: Role) => {
    const fighting = battle[role];
    const army = view.armies[fighting.army];
    return (
      <tr>
        <th>{role === "attacker" ? "Attacker" : "Defender"}</th>
        <td>{army?.name ?? fighting.army}</td>
        <td>{view.setup!.players.find((p) => p.id === fighting.player)?.name ?? fighting.player}</td>
        <td>{points(fighting.points)} pts</td>
        <td data-order={role}>{fighting.order ? ORDER_NAMES[fighting.order] : "order hidden"}</td>
      </tr>
    );
  };
  return (
    <>
      <h3>
        Battle {battle.id} at {sq(battle.at)}
      </h3>
      <p>Terrain guide (K1): {terrainGuide(terrainAt(map, battle.at), onRoad)}.</p>
      <table>
        <tbody>
          {side("attacker")}
          {side("defender")}
        </tbody>
      </table>
      <p>
        {battle.vpTarget === HIDDEN
          ? "Size and VPs to win hidden by fog of war until the Battle phase."
          : `Average ${points(battle.averagePoints)} pts; ${battle.vpTarget} VPs to win.`}{" "}
        {battle.defences ? `Defences: ${points(battle.defences)} pts for the defender.` : "No defences."}
      </p>
      <p>Engagement (B2): {effects ? effects.effect : "known once both orders are revealed"}</p>
      <p data-testid={`battle-status-${battle.id}`}>
        {battle.status === "resolved"
          ? `Result: ${battle.winner ? `${sideName(view, battle.winner)} won${battle.overwhelming ? " overwhelmingly" : ""}` : "a draw"}, VPs ${battle.result!.attacker.vp}-${battle.result!.defender.vp}${battle.resolvedBy === "model" ? "; resolved by the battle model" : ""}`
          : battle.report
            ? `Reported by ${sideName(view, battle.report.by)}: ${outcomeWords(view, battle, battle.report.result.outcome)}; awaiting confirmation`
            : "To be fought."}
      </p>
      {battle.status !== "resolved" && battle.report && (
        <ResultTable view={view} battle={battle} result={battle.report.result} caption="The result reported" />
      )}
      {battle.status === "resolved" && battle.resolvedBy === "model" && (
        <ResultTable
          view={view}
          battle={battle}
          result={battle.result!}
          caption="The battle model's result (B4), drawn by the host from the turn's dice (D1)"
        />
      )}
    </>
  );
}

const sideName = (view: CampaignView, player: string) =>
  view.setup!.players.find((p) => p.id === player)?.name ?? player;

/** A battle's outcome in words: which army and side won, or a draw. */
function outcomeWords(view: CampaignView, battle: Battle, outcome: BattleOutcome): string {
  if (outcome === "draw") return "a draw";
  const fighting = battle[outcome];
  return `the ${outcome} won (${view.armies[fighting.army]?.name ?? fighting.army}, ${sideName(view, fighting.player)})`;
}

/**
 * Units by formation in words, each beside what the side's roster had where the seat's view holds it, for the
 * confirming side to check against its own count: "2 of 4 horde-clan-chief of howlers1"; "none" for none.
 */
function unitsWords(units: SideResult["losses"], roster: ReturnType<typeof formationsOf>): string {
  const present = (formation: string, unit: string) => roster.find((f) => f.id === formation)?.units[unit];
  const parts = Object.entries(units).flatMap(([formation, counts]) =>
    Object.entries(counts).map(([unit, count]) => {
      const had = present(formation, unit);
      return `${count}${had === undefined ? "" : ` of ${had}`} ${unit} of ${formation}`;
    }),
  );
  return parts.length === 0 ? "none" : parts.join(", ");
}

/** A8: titan damage in words: shields down and weapons destroyed, per titan. */
function titanWords(damage: SideResult["titanDamage"]): string {
  const parts = Object.entries(damage ?? {}).map(
    ([titan, { shields, weapons }]) =>
      `${titan}: ${shields} shields down${weapons.length > 0 ? `, ${weapons.map((w) => w.name).join(", ")} destroyed` : ""}`,
  );
  return parts.length === 0 ? "none" : parts.join("; ");
}

/**
 * B4: every figure of a result, side by side: one reported, for the opponent to check before confirming it; or the
 * battle model's, for both players to fight the battle's consequences by.
 */
function ResultTable({
  view,
  battle,
  result,
  caption,
}: {
  view: CampaignView;
  battle: Battle;
  result: BattleResult;
  caption: string;
}) {
  const armyName = (role: Role) => view.armies[battle[role].army]?.name ?? battle[role].army;
  const rows: Array<[string, (side: SideResult, role: Role) => string]> = [
    ["VPs won", (side) => String(side.vp)],
    ["units lost", (side, role) => unitsWords(side.losses, formationsOf(view, battle, role))],
    ["units routed", (side, role) => unitsWords(side.routed, formationsOf(view, battle, role))],
    ["titan damage", (side) => titanWords(side.titanDamage)],
  ];
  return (
    <table class="reported" data-testid={`${battle.status === "resolved" ? "modelled" : "reported"}-${battle.id}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <td />
          {ROLES.map((role) => (
            <th key={role} scope="col">
              {role === "attacker" ? "Attacker" : "Defender"}: {armyName(role)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, words]) => (
          <tr key={label} data-reported={label}>
            <th scope="row">{label}</th>
            {ROLES.map((role) => (
              <td key={role}>{words(result[role], role)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * B4: the result as one player enters it and the other confirms or rejects it against its own count. The engine
 * checks it (losses and routs against the rosters, the VPs).
 */
function ResultForm({ game, battle }: { game: Game; battle: Battle }) {
  const view = game.view.value!;
  const entry = useResultEntry();
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const player = game.player;
  if (!player || (battle.attacker.player !== player && battle.defender.player !== player)) return null;
  if (battle.report) {
    if (battle.report.by === player) return <p>Waiting for your opponent to confirm the result you reported.</p>;
    return <ConfirmForm game={game} view={view} battle={battle} />;
  }
  return (
    <form
      class="result-form"
      data-testid="result-form"
      onSubmit={(event) => {
        event.preventDefault();
        void game
          .submit({ type: "ReportBattleResult", battle: battle.id, result: entry.result() })
          .then((answer) => setVerdict(answer ?? null));
      }}
    >
      <ResultFields view={view} battle={battle} entry={entry} verdict={verdict} />
      <button type="submit">Report the result</button>
    </form>
  );
}
