/**
 * A player's audit (`epicwar audit --as PLAYER`, docs/views.md): the audit recomputes the shared log, so nearly all of
 * it is public: the chain's verdict, the dice and seeds, every activation, reveal and move, and what each finding says
 * is wrong and where (verdict, rule, turn, army, player, seqs). What a player is not shown:
 *
 * - any hash of the log: the chain's head hash, and any event's hash quoted in a finding (a player's log carries no
 *   hashes: a hash over a hidden field gives the field away to whoever tries its few values);
 * - the detail of a finding about the other side that is worked out from that side's secrets: its commanders and
 *   their levels (A6), or, under fog of war (A2), its rosters, points, reserves and war chest (the war chest, titan and
 *   purchase checks: A5, A8, S2, S7); and of any finding about the other side that cites an event the player's view
 *   redacts. Scouting (A3) and off-table support (A7) are public, and the base checks (T3-T5, D1) read only public
 *   fields: an order is in the log only once revealed.
 */
import type { CurrentEvent } from "../../events/index.js";
import type { AuditEvent, AuditReport, Finding } from "../../replays/audit.js";
import { advancedRule } from "../../projections/advanced.js";
import { fogLifted } from "./fog.js";
import { HIDDEN, seesAll, viewEvent, type ViewContext, type Viewer } from "./view.js";

/** A finding as a player sees it: `redacted` names its hidden fields (["detail"]). */
export type ViewedFinding = Finding & { redacted?: string[] };

/** Advanced rules whose checks quote nothing secret: scouting's stated sizes and rolls (A3), support bought and used (A7). */
const PUBLIC_RULES: ReadonlySet<string> = new Set(["A3", "A7"]);

/** What a finding's detail would give away of the other side, or undefined when it may be shown. */
function secretOf(
  finding: Finding,
  viewer: string,
  context: ViewContext,
  redacted: ReadonlySet<number>,
): string | undefined {
  const owner = finding.player ?? (finding.army === undefined ? undefined : context.state.armies[finding.army]?.player);
  if (owner === undefined || owner === viewer) return undefined;
  const setup = context.state.setup;
  if (finding.rule === "A6" && (setup === null || advancedRule(setup.options, "commanders")))
    return `${owner}'s commanders (A6)`;
  if (finding.rule !== undefined && !PUBLIC_RULES.has(finding.rule) && !fogLifted(context))
    return `${owner}'s forces, under fog of war (A2)`;
  if (finding.seqs.some((seq) => redacted.has(seq))) return `what the events it cites hide of ${owner}`;
  return undefined;
}

/**
 * The audit report as a viewer may see it: as computed for the host and for no viewer; for a player, without the log's
 * hashes and without the details of findings worked out from the other side's secrets (see above). `context` is the
 * campaign now (logViewContext), `events` the log the report was computed from.
 */
export function viewAudit(
  report: AuditReport,
  viewer: Viewer,
  context: ViewContext,
  events: readonly AuditEvent[],
): AuditReport {
  if (seesAll(viewer)) return report;
  // The audit's events are read at their current version already (loadAuditInput), as viewEvent takes them.
  const redacted = new Set(
    events
      .filter((event) => "redacted" in viewEvent(event as AuditEvent & CurrentEvent, viewer, context))
      .map((event) => event.seq),
  );
  // A 12-character print of an event's hash gives it away as well as the whole hash does.
  const hashes = events.map((event) => event.hash).filter((hash): hash is string => typeof hash === "string");
  const unhashed = (text: string) =>
    text.replace(/\b[0-9a-f]{12,64}\b/g, (hex) => (hashes.some((hash) => hash.startsWith(hex)) ? HIDDEN : hex));
  const viewed = new Map<Finding, ViewedFinding>();
  const view = (finding: Finding): ViewedFinding => {
    let seen = viewed.get(finding);
    if (!seen) {
      const secret = secretOf(finding, viewer, context, redacted);
      seen = secret
        ? { ...finding, detail: `${HIDDEN}: it would give away ${secret}`, redacted: ["detail"] }
        : { ...finding, detail: unhashed(finding.detail) };
      viewed.set(finding, seen);
    }
    return seen;
  };
  return {
    ...report,
    chain: report.chain.ok
      ? { ...report.chain, headHash: HIDDEN }
      : { ...report.chain, message: unhashed(report.chain.message) },
    findings: report.findings.map(view),
    turns: report.turns.map((turn) => ({ ...turn, findings: turn.findings.map(view) })),
  };
}
