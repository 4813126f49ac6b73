/**
 * Comparing two lines of a campaign (two branches, or a branch and main) at their current states: CVPs, who holds
 * which objective and home base, the armies' positions and strength, the reserves, the winner. A line is summed up
 * from a view of its state (src/views/view.ts): for a player, the other side's strength and reserves may be HIDDEN (A2).
 */
import type { Square } from "../events/common.js";
import { cvpTotals } from "../projections/derived.js";
import { HIDDEN, type CampaignView, type Hidden } from "../src/views/view.js";

export interface ArmySummary {
  player: string;
  at: Square | null;
  status: string;
  points: number | Hidden;
}

/** What a diff compares of one line's state. */
export interface LineSummary {
  seq: number;
  turn: number;
  phase: string;
  status: string;
  /** undefined while the campaign goes on; a player id, or null for a draw, once it is finished. */
  winner: string | null | undefined;
  cvps: Record<string, number>;
  objectives: Record<string, string | null>;
  homeBases: Record<string, string>;
  armies: Record<string, ArmySummary>;
  reserves: Record<string, Record<string, number> | Hidden>;
}

/** What a diff compares of a line: give it the viewer's view of the state (the state itself shows everything). */
export function summarize(state: CampaignView): LineSummary {
  const sorted = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return {
    seq: state.seq,
    turn: state.turn,
    phase: state.phase,
    status: state.status,
    winner: state.result ? state.result.winner : undefined,
    cvps: cvpTotals(state),
    objectives: sorted(Object.fromEntries(Object.values(state.objectives).map((o) => [o.id, o.heldBy]))),
    homeBases: sorted(Object.fromEntries(Object.values(state.homeBases).map((h) => [h.player, h.heldBy]))),
    armies: sorted(
      Object.fromEntries(
        Object.values(state.armies).map((a) => [
          a.id,
          { player: a.player, at: a.at, status: a.status, points: a.points },
        ]),
      ),
    ),
    reserves: sorted(
      Object.fromEntries(
        Object.entries(state.ledgers).map(([player, ledger]) => [
          player,
          ledger.reserves === HIDDEN ? HIDDEN : sorted(ledger.reserves),
        ]),
      ),
    ),
  };
}

/** One thing that differs: what it is, and its value on each side (as text). */
export interface Difference {
  what: string;
  a: string;
  b: string;
}

const square = (at: Square | null) => (at ? `(${at[0]},${at[1]})` : "off the map");
const units = (counts: Record<string, number> | Hidden | undefined) => {
  if (counts === HIDDEN) return HIDDEN;
  const entries = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return total === 0 ? "none" : `${total} units (${entries.map(([type, n]) => `${type} ${n}`).join(", ")})`;
};
const strength = (points: number | Hidden) => (points === HIDDEN ? HIDDEN : `${points.toLocaleString("en")} pts`);
const winner = (w: string | null | undefined) => (w === undefined ? "none yet" : w === null ? "a draw" : w);
const holder = (h: string | null | undefined) => (h === undefined ? "not in play" : h === null ? "nobody" : h);

/** Every difference between two lines' states, in a fixed order: outcome, CVPs, objectives, home bases, armies, reserves. */
export function diffSummaries(a: LineSummary, b: LineSummary): Difference[] {
  const out: Difference[] = [];
  const add = (what: string, x: string, y: string) => {
    if (x !== y) out.push({ what, a: x, b: y });
  };
  const keys = (x: object, y: object) => [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
  add("winner", winner(a.winner), winner(b.winner));
  add("where", `turn ${a.turn} ${a.phase} (seq ${a.seq})`, `turn ${b.turn} ${b.phase} (seq ${b.seq})`);
  for (const player of keys(a.cvps, b.cvps))
    add(`CVPs ${player}`, String(a.cvps[player] ?? 0), String(b.cvps[player] ?? 0));
  for (const id of keys(a.objectives, b.objectives))
    add(`objective ${id} held by`, holder(a.objectives[id]), holder(b.objectives[id]));
  for (const id of keys(a.homeBases, b.homeBases))
    add(`home base of ${id} held by`, holder(a.homeBases[id]), holder(b.homeBases[id]));
  for (const id of keys(a.armies, b.armies)) {
    const [x, y] = [a.armies[id], b.armies[id]];
    if (!x || !y) {
      add(`army ${id}`, x ? "in play" : "not raised", y ? "in play" : "not raised");
      continue;
    }
    add(`army ${id} status`, x.status, y.status);
    add(`army ${id} position`, square(x.at), square(y.at));
    add(`army ${id} strength`, strength(x.points), strength(y.points));
  }
  for (const player of keys(a.reserves, b.reserves))
    add(`reserves ${player}`, units(a.reserves[player]), units(b.reserves[player]));
  return out;
}

/** The diff as text: a heading naming both lines, then one row per difference (or a line saying there is none). */
export function renderDiff(
  nameA: string,
  nameB: string,
  a: LineSummary,
  b: LineSummary,
  differences: Difference[],
): string[] {
  const state = (s: LineSummary) =>
    `seq ${s.seq}, turn ${s.turn} ${s.phase}, ${s.status}${s.winner !== undefined ? `, won by ${winner(s.winner)}` : ""}`;
  const lines = [`${nameA}: ${state(a)}`, `${nameB}: ${state(b)}`];
  if (differences.length === 0) return [...lines, "No differences in CVPs, objectives, armies, reserves or outcome."];
  const width = Math.max(...differences.map((d) => d.what.length), 4);
  const widthA = Math.max(...differences.map((d) => d.a.length), nameA.length);
  lines.push("", `${"".padEnd(width)}  ${nameA.padEnd(widthA)}  ${nameB}`);
  for (const d of differences) lines.push(`${d.what.padEnd(width)}  ${d.a.padEnd(widthA)}  ${d.b}`);
  return lines;
}
