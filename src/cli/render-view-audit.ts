import { describeSent, type ViewAudit } from "../client/view-audit.js";

/** The lines `audit` prints of a seat's view chain checked against its receipts. */
export function renderViewAudit(audit: ViewAudit, seat: string, proofPath?: string): string[] {
  const lines = [
    audit.checkpoint
      ? `view of ${seat}: ${audit.receipts} receipts checked (${audit.entries} events they showed), latest checkpoint seq ${audit.checkpoint.seq} view ${audit.checkpoint.view.slice(0, 16)}`
      : `view of ${seat}: no receipt kept on this machine yet`,
  ];
  if (audit.differs) lines.push(`FAIL view at seq ${audit.differs.seq}: ${audit.differs.what}`);
  for (const sent of audit.withheld) lines.push(`WITHHELD: ${describeSent(sent)}, not in the log`);
  for (const sent of audit.landedUnreceipted) lines.push(`no receipt: ${describeSent(sent)}, in the log`);
  if (proofPath)
    lines.push(`proof written to ${proofPath}: python3 tools/verify_log.py --proof ${proofPath} [the raw log]`);
  return lines;
}

/** The seat's view check as `audit --json` gives it, in the member `view`. */
export function viewSummary(audit: ViewAudit, proofPath?: string) {
  const { proof: _written, ...summary } = audit;
  return { ...summary, ...(proofPath ? { proofPath } : {}) };
}
