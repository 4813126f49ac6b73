import { useState } from "preact/hooks";
import type { BattleOutcome, BattleResult, SideResult } from "../../events/common.js";
import { battleEngagement } from "../../projections/derived.js";
import { terrainAt } from "../../projections/grid.js";
import { sq } from "../rules/refusal.js";
import { HIDDEN, type CampaignView, type ViewedEntry } from "../views/view.js";
import { ORDER_NAMES } from "../words/orders.js";
import { terrainGuide } from "../words/terrain-guide.js";
import type { Game, Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";
import { rowOfRefusal, type ResultRow } from "./result-rows.js";

type Battle = ViewedEntry<"battles">;
type Role = "attacker" | "defender";
const ROLES: readonly Role[] = ["attacker", "defender"];
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
          ? `Result: ${battle.winner ? `${sideName(view, battle.winner)} won${battle.overwhelming ? " overwhelmingly" : ""}` : "a draw"}, VPs ${battle.result!.attacker.vp}-${battle.result!.defender.vp}`
          : battle.report
            ? `Reported by ${sideName(view, battle.report.by)}: ${outcomeWords(view, battle, battle.report.result.outcome)}; awaiting confirmation`
            : "To be fought."}
      </p>
      {battle.status !== "resolved" && battle.report && <ReportedResult view={view} battle={battle} />}
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

/** B4: every figure of a result reported, side by side, for the opponent to check before confirming it. */
function ReportedResult({ view, battle }: { view: CampaignView; battle: Battle }) {
  const result = battle.report!.result;
  const armyName = (role: Role) => view.armies[battle[role].army]?.name ?? battle[role].army;
  const rows: Array<[string, (side: SideResult, role: Role) => string]> = [
    ["VPs won", (side) => String(side.vp)],
    ["units lost", (side, role) => unitsWords(side.losses, formationsOf(view, battle, role))],
    ["units routed", (side, role) => unitsWords(side.routed, formationsOf(view, battle, role))],
    ["titan damage", (side) => titanWords(side.titanDamage)],
  ];
  return (
    <table class="reported" data-testid={`reported-${battle.id}`}>
      <caption>The result reported</caption>
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

/** Per formation and unit type of a side: units lost and units routed, as the form holds them. */
type Casualties = Record<string, Record<string, { lost: number; routed: number }>>;

/**
 * B4: the result as one player enters it and the other confirms or rejects it. The engine checks it (losses and routs
 * against the rosters, the VPs): its refusal, with the rule ID, is shown beside the row of the formation it names,
 * else under the form.
 */
function ResultForm({ game, battle }: { game: Game; battle: Battle }) {
  const view = game.view.value!;
  const [outcome, setOutcome] = useState<BattleOutcome>("attacker");
  const [vp, setVp] = useState<Record<Role, number>>({ attacker: 0, defender: 0 });
  const [casualties, setCasualties] = useState<Record<Role, Casualties>>({ attacker: {}, defender: {} });
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const player = game.player;
  if (!player || (battle.attacker.player !== player && battle.defender.player !== player)) return null;
  const send = async (command: Record<string, unknown>) => setVerdict((await game.submit(command)) ?? null);

  if (battle.report) {
    if (battle.report.by === player) return <p>Waiting for your opponent to confirm the result you reported.</p>;
    return (
      <div class="result-form">
        <button onClick={() => send({ type: "ConfirmBattleResult", battle: battle.id })}>Confirm the result</button>
        <button onClick={() => send({ type: "RejectBattleResult", battle: battle.id })}>Reject it</button>
        <RefusalNote verdict={verdict} />
      </div>
    );
  }
  const result = (): BattleResult => {
    const sideResult = (role: Role) => {
      const losses: Record<string, Record<string, number>> = {};
      const routed: Record<string, Record<string, number>> = {};
      for (const [formation, units] of Object.entries(casualties[role]))
        for (const [unit, count] of Object.entries(units)) {
          if (count.lost > 0) (losses[formation] ??= {})[unit] = count.lost;
          if (count.routed > 0) (routed[formation] ??= {})[unit] = count.routed;
        }
      return { vp: vp[role], losses, routed };
    };
    return { outcome, attacker: sideResult("attacker"), defender: sideResult("defender") };
  };
  const setCount = (role: Role, formation: string, unit: string, part: "lost" | "routed", value: number) =>
    setCasualties((all) => {
      const side = { ...all[role] };
      const units = { ...(side[formation] ?? {}) };
      units[unit] = { ...(units[unit] ?? { lost: 0, routed: 0 }), [part]: value };
      side[formation] = units;
      return { ...all, [role]: side };
    });
  const rows: ResultRow[] = ROLES.flatMap((role) =>
    formationsOf(view, battle, role).flatMap((formation) =>
      Object.keys(formation.units).map((unit) => ({ role, formation: formation.id, unit })),
    ),
  );
  const refusedRow = rowOfRefusal(verdict, rows);
  return (
    <form
      class="result-form"
      data-testid="result-form"
      onSubmit={(event) => {
        event.preventDefault();
        void send({ type: "ReportBattleResult", battle: battle.id, result: result() });
      }}
    >
      <label>
        Outcome{" "}
        <select name="outcome" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value as BattleOutcome)}>
          <option value="attacker">the attacker won</option>
          <option value="defender">the defender won</option>
          <option value="draw">a draw</option>
        </select>
      </label>
      {ROLES.map((role) => {
        const army = view.armies[battle[role].army];
        const formations = formationsOf(view, battle, role);
        return (
          <fieldset key={role}>
            <legend>
              {role === "attacker" ? "Attacker" : "Defender"}: {army?.name ?? battle[role].army}
            </legend>
            <label>
              VPs won{" "}
              <input
                type="number"
                min={0}
                name={`${role}-vp`}
                value={vp[role]}
                onInput={(e) => setVp({ ...vp, [role]: Number(e.currentTarget.value) })}
              />
            </label>
            <table>
              <thead>
                <tr>
                  <th>formation</th>
                  <th>units</th>
                  <th>present</th>
                  <th>lost</th>
                  <th>routed</th>
                </tr>
              </thead>
              <tbody>
                {formations.flatMap((formation) =>
                  Object.entries(formation.units).map(([unit, present]) => [
                    <tr key={`${formation.id}/${unit}`} data-row={`${role}/${formation.id}/${unit}`}>
                      <td>{formation.id}</td>
                      <td>{unit}</td>
                      <td>{present}</td>
                      {(["lost", "routed"] as const).map((part) => (
                        <td key={part}>
                          <input
                            type="number"
                            min={0}
                            name={`${role}-${part}-${formation.id}-${unit}`}
                            aria-label={`${unit} of ${formation.id}, ${part}`}
                            value={casualties[role][formation.id]?.[unit]?.[part] ?? 0}
                            onInput={(e) => setCount(role, formation.id, unit, part, Number(e.currentTarget.value))}
                          />
                        </td>
                      ))}
                    </tr>,
                    refusedRow?.role === role && refusedRow.formation === formation.id && refusedRow.unit === unit && (
                      <tr key={`${formation.id}/${unit}/refusal`} class="refusal-row">
                        <td colSpan={5}>
                          <RefusalNote verdict={verdict} />
                        </td>
                      </tr>
                    ),
                  ]),
                )}
              </tbody>
            </table>
          </fieldset>
        );
      })}
      <button type="submit">Report the result</button>
      {!refusedRow && <RefusalNote verdict={verdict} />}
    </form>
  );
}

/** A side's formations as the seat's view holds them (none where fog of war hides the roster). */
function formationsOf(view: CampaignView, battle: Battle, role: Role) {
  const formations = view.armies[battle[role].army]?.formations;
  return Array.isArray(formations) ? formations : [];
}
