import { HIDDEN, type Hidden } from "../views/view.js";
import { ORDER_NAMES } from "../words/orders.js";
import { sq } from "../rules/refusal.js";
import type { BattleSheet, SheetSide } from "../sheet/battle-sheet.js";

/** The battle sheet as text (`epicwar battle`, the demo): every part of battleSheet's data, one section each. */

const n = (value: number | Hidden) => (value === HIDDEN ? "?" : value.toLocaleString("en"));
const sideText = (side: SheetSide) =>
  `${side.army} (${side.player}, ${n(side.points)} pts, ${side.order ? ORDER_NAMES[side.order] : "order hidden"})`;

export function renderBattleSheet(sheet: BattleSheet): string[] {
  const lines = [
    `Battle ${sheet.battle}, turn ${sheet.turn}, at ${sq(sheet.at)}: ${sideText(sheet.attacker)} attacks ${sideText(sheet.defender)}`,
    sheet.vpTarget === HIDDEN
      ? "  size and VPs to win hidden by fog of war until the Battle phase"
      : `  average ${n(sheet.averagePoints)} pts, ${sheet.vpTarget} VPs to win${sheet.defences ? `, ${n(sheet.defences)} pts of defences for the defender` : ""}`,
  ];
  if (sheet.engagement) lines.push(`  Engagement (B2): ${sheet.engagement}`);
  lines.push(`  Terrain (K1): ${sheet.terrain.terrain}${sheet.terrain.road ? " with a road" : ""}`);
  for (const guide of sheet.terrain.guide) lines.push(`    ${guide}`);
  lines.push(...scenarioLines(sheet));
  lines.push(...conditionLines(sheet));
  lines.push(...assistantLines(sheet));
  if (sheet.result)
    lines.push(
      `  Result: ${sheet.result.winner ? `${sheet.result.winner} won${sheet.result.overwhelming ? " overwhelmingly" : ""}` : "a draw"}, VPs ${sheet.result.vp[0]}-${sheet.result.vp[1]}${sheet.result.resolvedBy === "model" ? ", resolved by the battle model" : ""}`,
    );
  else lines.push(`  Result: ${sheet.status === "reported" ? "reported, awaiting confirmation" : "not yet reported"}`);
  return lines;
}

function scenarioLines({ scenario }: BattleSheet): string[] {
  if (scenario === null) return [];
  if ("pending" in scenario) return [`  Scenario (K2): not settled yet: ${scenario.pending}`];
  return [
    `  Scenario (K2): ${scenario.name} (${scenario.settled})${scenario.turnLimit ? `, ${scenario.turnLimit} turns` : ", no turn limit"}`,
    `    Set-up: ${scenario.setUp}`,
    `    Victory: ${scenario.victory}`,
    ...(scenario.target ? [`    Target: ${scenario.target}`] : []),
  ];
}

function conditionLines({ conditions, enclosed }: BattleSheet): string[] {
  const lines: string[] = [];
  if (conditions) {
    lines.push(`  Conditions (K3):${conditions.pending ? " not rolled yet" : ""}`);
    for (const row of conditions.rows) {
      lines.push(`    ${row.condition}: ${row.name}${row.roll ? ` (${row.roll})` : ""}: ${row.byTurn}`);
      if (row.note) lines.push(`      ${row.note}`);
      // The tables' effects are their turn-by-turn levels; only Gravity Flux's needs its own words.
      if (row.name === "Gravity Flux!") lines.push(`      ${row.effect}`);
    }
  }
  if (enclosed !== null) lines.push(`  Enclosed (K3): ${enclosed ? "yes, an enclosed battlefield" : "no"}`);
  return lines;
}

function assistantLines(sheet: BattleSheet): string[] {
  const lines: string[] = [];
  for (const volley of sheet.volleys) {
    lines.push(
      `  Volley ${volley.id} on ${volley.player}'s formation (K5): ${volley.hits}${volley.unallocated ? `, ${volley.unallocated} with no unit to take them` : ""}`,
    );
    for (const unit of volley.units)
      lines.push(
        `    ${unit.unit} (${unit.kind}, ${unit.distanceCm} cm): ${unit.hits.join(", ")}${unit.saves === null ? "" : `; saves ${unit.saves}`}`,
      );
    if (volley.destroyed) lines.push(`    destroyed: ${volley.destroyed.join(", ") || "none"}`);
  }
  for (const barrage of sheet.barrages)
    lines.push(
      `  Barrage ${barrage.id} of ${barrage.player} (K5, Heresy): ${barrage.barragePoints} barrage points, ${barrage.toHit}+ on a d10, ${barrage.models} models${barrage.rolls ? `: rolled ${barrage.rolls.join(", ")}, ${barrage.hits} hits` : ", not rolled yet"}`,
    );
  return lines;
}
