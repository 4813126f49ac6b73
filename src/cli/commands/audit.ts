import type { Command } from "commander";
import { auditAsSeen } from "../../../replays/as-seen.js";
import type { AuditOptions, RecordedHead } from "../../../replays/audit.js";
import { auditSummary, renderAudit } from "../../../replays/audit-text.js";
import { CliError, EXIT } from "../errors.js";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";
import { viewAsOption } from "./viewer.js";
import { refuseLocalOnly } from "./remote.js";
import { RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";
import type { CliIo } from "../io.js";
import { writeFile } from "node:fs/promises";
import { auditView, proofFileName, proofFileText } from "../../client/view-audit.js";
import { sealedContext } from "../../views/chain.js";
import { renderViewAudit, viewSummary } from "../render-view-audit.js";

export interface AuditCliOptions {
  db: string;
  campaign?: string;
  turn?: string;
  json?: boolean;
  /** Head hashes recorded earlier, as "HASH" or "SEQ:HASH". */
  head?: string[];
  /** Whose view to print (docs/views.md): a player's audit hides the other side's secrets and the log's hashes. */
  as?: string;
  /** Where a remote seat's audit writes its proof, when the log as served differs from a receipt. */
  proof?: string;
}

/**
 * `epicwar audit`: recomputes every commitment, move, roll and hash of a campaign (replays/audit.ts) and prints the
 * report. Exit 0 when nothing is wrong (pending items of a turn under way are not wrong); exit 2, with one line on
 * stderr naming the first finding, when cheating is found or the chain is broken.
 */
export async function runAudit(options: AuditCliOptions, print: (line: string) => void): Promise<void> {
  const turn = options.turn === undefined ? undefined : parseTurn(options.turn);
  const heads = (options.head ?? []).map(parseHead);
  const auditOptions: AuditOptions = { ...(turn === undefined ? {} : { turn }), ...(heads.length ? { heads } : {}) };
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const campaign = await pickCampaign(engine, options.db, options.campaign);
    const { report, startedTurns } = await auditAsSeen(engine.store, campaign, options.as, auditOptions);
    if (turn !== undefined && report.turns.length === 0) {
      const started = startedTurns();
      throw new CliError(
        `turn ${turn} of ${campaign} has not started${started.length ? ` (turns ${started[0]}-${started[started.length - 1]} have)` : " (no turn has)"}`,
      );
    }
    if (options.json) print(JSON.stringify(report));
    else renderAudit(report).forEach(print);
    if (!report.ok) throw new CliError(auditSummary(report), EXIT.broken);
  });
}

/**
 * `epicwar audit` against a server: the server's audit of the campaign (or of one turn), as the seat may see it. A
 * player's audit shows no hashes, so there is no recorded head to check it against (--head).
 */
async function remoteAudit(
  request: ServerRequest,
  options: AuditCliOptions & RemoteSeatOptions,
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  refuseLocalOnly(options, {
    head: "--head checks the log's hashes, which the server shows no player, so --head does not work",
  });
  const turn = options.turn === undefined ? undefined : parseTurn(options.turn);
  const seat = await RemoteSeat.open(request, options, io.env);
  const report = await seat.handler.audit(seat.campaign, turn);
  if (turn !== undefined && report.turns.length === 0)
    throw new CliError(`turn ${turn} of ${seat.campaign} has not started`);
  const view = await auditSeatView(seat, options.proof);
  if (options.json) print(JSON.stringify({ ...report, view: viewSummary(view.audit, view.proofPath) }));
  else [...renderAudit(report), ...renderViewAudit(view.audit, seat.seat, view.proofPath)].forEach(print);
  if (!report.ok) throw new CliError(auditSummary(report), EXIT.broken);
  if (view.audit.differs || view.audit.withheld.length > 0)
    throw new CliError(
      view.audit.differs
        ? `seq ${view.audit.differs.seq}: ${view.audit.differs.what}`
        : `${view.audit.withheld.length} command(s) sent with no receipt are not in the log`,
      EXIT.broken,
    );
}

/**
 * The seat's view chain recomputed from the log as served and compared with the receipts it kept
 * (src/client/view-audit.ts); a proof written where the log differs from one.
 */
async function auditSeatView(seat: RemoteSeat, proofPath: string | undefined) {
  const kept = await seat.handler.receipts.read();
  const { events } = await seat.handler.log(seat.campaign);
  const state = await seat.handler.state(seat.campaign);
  const audit = auditView({
    campaign: seat.campaign,
    line: seat.campaign,
    seat: seat.seat,
    sealed: sealedContext(state),
    kept,
    served: events,
  });
  if (!audit.proof) return { audit, proofPath: undefined };
  const path = proofPath ?? proofFileName(seat.campaign, seat.seat);
  await writeFile(path, proofFileText(audit.proof));
  return { audit, proofPath: path };
}

function parseTurn(text: string): number {
  if (!/^[1-9][0-9]{0,5}$/.test(text)) throw new CliError(`--turn must be a turn number (1, 2, ...), not "${text}"`);
  return Number(text);
}

function parseHead(text: string): RecordedHead {
  const match = /^(?:([1-9][0-9]*):)?([0-9a-fA-F]{16,64})$/.exec(text);
  if (!match)
    throw new CliError(
      `--head must be a head hash recorded earlier (at least its first 16 hex characters), optionally after its seq and a colon: "42:1a2b3c4d5e6f7a8b"; not "${text}"`,
    );
  return { ...(match[1] ? { seq: Number(match[1]) } : {}), hash: match[2]!.toLowerCase() };
}

/** Registers `audit`: recomputes a campaign's commitments, moves, rolls and hashes. */
export function registerAudit(
  program: Command,
  { action, print, io, server, dbOption, campaignOption, branchOption, secretsOption }: CliKit,
): void {
  program
    .command("audit")
    .description(
      "recompute every commitment, move, roll and hash of a campaign; exit 2 naming the seqs when anything is wrong",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .option("--turn <n>", "only this turn (with the chain and campaign-wide findings)")
    .option("--json", "print the report as one JSON object")
    .option(
      "--head <[seq:]hash>",
      "a head hash recorded earlier (as epicwar verify prints it), which must still be in the log; repeatable",
      (value: string, all: string[] = []) => [...all, value],
    )
    .option(
      "--proof <file>",
      "against a server: where to write the proof when the log differs from a receipt (default CAMPAIGN-SEAT-proof.json)",
    )
    .addOption(viewAsOption())
    .addOption(branchOption())
    .addOption(secretsOption())
    .addHelpText(
      "after",
      "\nWhat is checked and why the dice are fair: docs/fair-dice.md. Orders not yet revealed and rolls whose host seed is still secret are pending, not failures.",
    )
    .action(
      action((options: AuditCliOptions & { secrets?: string }, command: Command) => {
        const remote = server(command);
        return remote ? remoteAudit(remote, options, io, print) : runAudit(options, print);
      }),
    );
}
