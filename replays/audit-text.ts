import type { Square } from "../events/common.js";
import { describeScoutingRounds } from "./audit-scouting.js";
import { keyReplacedWarning } from "../src/words/seat-keys.js";
import {
  describeRounds,
  ORDER_WORDS,
  VERDICTS,
  type ArmyAudit,
  type AuditReport,
  type Finding,
  type RollAudit,
  type SignatureSummary,
  type TurnAudit,
} from "./audit.js";

/** The audit report as text: the chain, then a section per turn with one line per army, roll and finding. */

const short = (hex: string) => hex.slice(0, 12);
const sq = ([x, y]: Square) => `(${x},${y})`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The verdict as a reader sees it: the chain's names the seq where it breaks. */
export function findingLabel(finding: Finding): string {
  return finding.verdict === VERDICTS.chainBroken ? `chain broken at seq ${finding.seqs[0]}` : finding.verdict;
}

export function findingLine(finding: Finding): string {
  const rule = finding.rule ? ` (${finding.rule})` : "";
  return `! ${findingLabel(finding)}${rule}: ${finding.detail}${finding.seqs.length ? ` [seq ${finding.seqs.join(", ")}]` : ""}`;
}

function armyLine(army: ArmyAudit): string {
  const parts = [
    `activated seq ${army.activation.seq}${army.activation.engaged ? " (engaged defender)" : ""}${army.activation.stacked ? " (stacked on its home base)" : ""}`,
  ];
  for (const bad of army.badReveals) parts.push(`bad reveal seq ${bad.seq} (${ORDER_WORDS[bad.order]}, ${bad.type})`);
  parts.push(army.reveal ? `revealed seq ${army.reveal.seq} ${ORDER_WORDS[army.reveal.order]}` : "not revealed");
  if (army.moves.length === 0) parts.push("did not move");
  for (const move of army.moves) parts.push(`moved seq ${move.seq} ${sq(move.from)}->${move.path.map(sq).join("->")}`);
  if (army.moves.length > 0)
    parts.push(`${plural(army.squares, "square")}${army.allowed !== null ? ` of ${army.allowed} allowed` : ""}`);
  return `army ${army.army} (${army.player}): ${parts.join(", ")}: ${army.verdicts.join("; ")}`;
}

/** What the roll drew: initiative's rounds and winner, or a scouting's 2D6 a side and its band. */
function rollDice(roll: RollAudit): string {
  if (roll.kind === "initiative")
    return `initiative, dice ${roll.firstDie}-${roll.lastDie}: ${describeRounds(
      roll.inputs.playerSeeds.map((s) => s.player),
      roll.rounds,
    )}, ${roll.winner} wins`;
  if (roll.kind === "kit")
    return `battle ${roll.battle}: ${roll.what}, dice ${roll.firstDie}-${roll.lastDie}: ${roll.dice.map((die) => `d${die.sides} ${die.face}`).join(", ")}`;
  const who = roll.army && roll.target ? ` (${roll.army} scouts ${roll.target})` : "";
  return `scouting ${roll.scouting}${who}, dice ${roll.firstDie}-${roll.lastDie}: ${describeScoutingRounds(roll.rounds)}, ${roll.band}`;
}

function rollLine(roll: RollAudit): string {
  const seeds = roll.inputs.playerSeeds
    .map((s) => `${s.player} ${s.seed ? `${short(s.seed)} (seq ${s.seq})` : "none"}`)
    .join(", ");
  const host = roll.inputs.hostSeed ? short(roll.inputs.hostSeed) : "secret";
  return `roll seq ${roll.seq}: ${rollDice(roll)}; host seed ${host}, player seeds ${seeds}: ${roll.verdict}`;
}

function turnLines(turn: TurnAudit): string[] {
  const lines = [`Turn ${turn.turn} (seq ${turn.firstSeq}-${turn.lastSeq}, ${turn.state})`];
  const commits = turn.commitments.map((c) => `committed seq ${c.seq} (${short(c.hostSeedHash)})`).join(", re-");
  const revealed = turn.hostSeed ? `, revealed seq ${turn.hostSeed.seq} (${short(turn.hostSeed.seed)})` : "";
  lines.push(`  host seed: ${commits}${revealed}: ${turn.hostSeedVerdict}`);
  lines.push(
    `  player seeds: ${turn.playerSeeds.length ? turn.playerSeeds.map((s) => `${s.player} seq ${s.seq} (${short(s.seed)})`).join(", ") : "none yet"}`,
  );
  for (const roll of turn.rolls) lines.push(`  ${rollLine(roll)}`);
  for (const army of turn.armies) lines.push(`  ${armyLine(army)}`);
  for (const finding of turn.findings) lines.push(`  ${findingLine(finding)}`);
  return lines;
}

export function renderAudit(report: AuditReport): string[] {
  const lines = [
    `Audit of campaign ${report.campaign}${report.stream !== report.campaign ? ` (stream ${report.stream})` : ""}: ${plural(report.events, "event")}${report.turnFilter !== null ? `, turn ${report.turnFilter} only` : ""}`,
  ];
  lines.push(
    report.chain.ok
      ? `chain: ok, ${plural(report.chain.events, "event")}, head ${report.chain.headHash}`
      : `chain: ${report.chain.verdict} (${report.chain.problem}): ${report.chain.message}`,
  );
  lines.push(...signatureLines(report.signatures));
  for (const finding of report.findings.filter((f) => f.turn === null)) lines.push(findingLine(finding));
  for (const turn of report.turns) lines.push("", ...turnLines(turn));
  const armies = report.turns.reduce((sum, t) => sum + t.armies.length, 0);
  const rolls = report.turns.reduce((sum, t) => sum + t.rolls.length, 0);
  const checked = `${plural(report.turns.length, "turn")}, ${plural(armies, "activation")}, ${plural(rolls, "roll")}`;
  const pending = report.pending > 0 ? `; ${report.pending} pending (not yet revealed)` : "";
  lines.push("");
  lines.push(
    report.ok
      ? `Result: ok: ${checked} checked, everything recomputes${pending}`
      : `Result: ${plural(report.findings.length, "finding")} (${[...new Set(report.findings.map(findingLabel))].join("; ")}) in ${checked}${pending}`,
  );
  return lines;
}

/** D2: the signed commands, the events of parties with no key in force, and a warning for each key replaced. */
export function signatureLines(signatures: SignatureSummary): string[] {
  const unsigned = Object.entries(signatures.unsigned).map(([party, count]) => `${party} ${count}`);
  return [
    `signatures: ${plural(signatures.signed, "signed command")} checked against the keys in force, ${plural(signatures.derived, "event")} decided again from them` +
      (unsigned.length > 0 ? `; unsigned (no key in force yet): ${unsigned.join(", ")}` : ""),
    ...signatures.replacements.map(keyReplacedWarning),
    ...signatures.organiser.map(
      ({ seq, type, signedBy }) =>
        `  the organiser's ${type} (seq ${seq}): ${signedBy === null ? "unsigned (no organiser's key in force yet)" : signedBy === "organiser" ? "signed by the organiser's key" : "signed by the host's key (before the organiser had a key of its own)"}`,
    ),
  ];
}

/** One line naming what is wrong, for the CLI's error line. */
export function auditSummary(report: AuditReport): string {
  if (report.ok) return `${report.campaign}: audit ok`;
  const first = report.findings[0]!;
  return `${report.campaign}: audit found ${plural(report.findings.length, "problem")}, first: ${findingLabel(first)}${first.seqs.length ? ` [seq ${first.seqs.join(", ")}]` : ""}`;
}
