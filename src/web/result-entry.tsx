import { useState } from "preact/hooks";
import type { BattleOutcome, BattleResult, SideResult } from "../../events/common.js";
import type { CampaignView, ViewedEntry } from "../views/view.js";
import type { Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";
import { rowOfRefusal, type ResultRow } from "./result-rows.js";

export type Battle = ViewedEntry<"battles">;
export type Role = "attacker" | "defender";
export const ROLES: readonly Role[] = ["attacker", "defender"];

/** Per formation and unit type of a side: units lost and units routed, as the form holds them. */
type Casualties = Record<string, Record<string, { lost: number; routed: number }>>;

/** A side's formations as the seat's view holds them (none where fog of war hides the roster). */
export function formationsOf(view: CampaignView, battle: Battle, role: Role) {
  const formations = view.armies[battle[role].army]?.formations;
  return Array.isArray(formations) ? formations : [];
}

/** The form's counts of a side's losses and routs, from a result's. */
function casualtiesOf(side: SideResult): Casualties {
  const casualties: Casualties = {};
  const add = (units: SideResult["losses"], part: "lost" | "routed") => {
    for (const [formation, counts] of Object.entries(units))
      for (const [unit, count] of Object.entries(counts))
        ((casualties[formation] ??= {})[unit] ??= { lost: 0, routed: 0 })[part] = count;
  };
  add(side.losses, "lost");
  add(side.routed, "routed");
  return casualties;
}

/** A battle result as it is being entered: its outcome, each side's VPs, losses and routs. */
export interface ResultEntry {
  outcome: BattleOutcome;
  setOutcome(outcome: BattleOutcome): void;
  vp: Record<Role, number>;
  setVp(role: Role, value: number): void;
  count(role: Role, formation: string, unit: string, part: "lost" | "routed"): number;
  setCount(role: Role, formation: string, unit: string, part: "lost" | "routed", value: number): void;
  /** The result the form holds, each side's other figures (titan damage, support) taken from `start`. */
  result(): BattleResult;
}

/** B4: the entry of a battle's result, empty or starting from one already reported. */
export function useResultEntry(start?: BattleResult): ResultEntry {
  const [outcome, setOutcome] = useState<BattleOutcome>(start?.outcome ?? "attacker");
  const [vp, setVps] = useState<Record<Role, number>>({
    attacker: start?.attacker.vp ?? 0,
    defender: start?.defender.vp ?? 0,
  });
  const [casualties, setCasualties] = useState<Record<Role, Casualties>>({
    attacker: start ? casualtiesOf(start.attacker) : {},
    defender: start ? casualtiesOf(start.defender) : {},
  });
  const sideResult = (role: Role): SideResult => {
    const losses: SideResult["losses"] = {};
    const routed: SideResult["routed"] = {};
    for (const [formation, units] of Object.entries(casualties[role]))
      for (const [unit, count] of Object.entries(units)) {
        if (count.lost > 0) (losses[formation] ??= {})[unit] = count.lost;
        if (count.routed > 0) (routed[formation] ??= {})[unit] = count.routed;
      }
    return { ...start?.[role], vp: vp[role], losses, routed };
  };
  return {
    outcome,
    setOutcome,
    vp,
    setVp: (role, value) => setVps((all) => ({ ...all, [role]: value })),
    count: (role, formation, unit, part) => casualties[role][formation]?.[unit]?.[part] ?? 0,
    setCount: (role, formation, unit, part, value) =>
      setCasualties((all) => {
        const side = { ...all[role] };
        const units = { ...(side[formation] ?? {}) };
        units[unit] = { ...(units[unit] ?? { lost: 0, routed: 0 }), [part]: value };
        side[formation] = units;
        return { ...all, [role]: side };
      }),
    result: () => ({ outcome, attacker: sideResult("attacker"), defender: sideResult("defender") }),
  };
}

/**
 * B4: the fields of a battle result: the outcome, and per side its VPs and its units lost and routed per formation and
 * unit type against the roster. A refusal of the engine, with its rule ID, is shown beside the row of the formation it
 * names, else under the fields.
 */
export function ResultFields({
  view,
  battle,
  entry,
  verdict,
}: {
  view: CampaignView;
  battle: Battle;
  entry: ResultEntry;
  verdict: Verdict | null;
}) {
  const rows: ResultRow[] = ROLES.flatMap((role) =>
    formationsOf(view, battle, role).flatMap((formation) =>
      Object.keys(formation.units).map((unit) => ({ role, formation: formation.id, unit })),
    ),
  );
  const refusedRow = rowOfRefusal(verdict, rows);
  return (
    <>
      <label>
        Outcome{" "}
        <select
          name="outcome"
          value={entry.outcome}
          onChange={(e) => entry.setOutcome(e.currentTarget.value as BattleOutcome)}
        >
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
                value={entry.vp[role]}
                onInput={(e) => entry.setVp(role, Number(e.currentTarget.value))}
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
                            value={entry.count(role, formation.id, unit, part)}
                            onInput={(e) =>
                              entry.setCount(role, formation.id, unit, part, Number(e.currentTarget.value))
                            }
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
      {!refusedRow && <RefusalNote verdict={verdict} />}
    </>
  );
}
