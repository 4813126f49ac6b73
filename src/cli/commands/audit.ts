import type { Command } from "commander";
import { auditAsSeen } from "../../../replays/as-seen.js";
import type { AuditOptions, RecordedHead } from "../../../replays/audit.js";
import { auditSummary, renderAudit } from "../../../replays/audit-text.js";
import { CliError, EXIT } from "../errors.js";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";
import { viewAsOption } from "./viewer.js";
import { refuseLocalOnly } from "./remote.js";
import { receiptsPath, RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";
import type { CliIo } from "../io.js";
import { writeFile } from "node:fs/promises";
import {
  auditView,
  proofFileName,
  proofFileText,
  type ViewAudit,
  type ViewAuditInput,
} from "../../client/view-audit.js";
import { FileReceiptBook } from "../../client/receipt-file.js";
import type { AuditReport } from "../../../replays/audit-report.js";
import { eventsAsSeen } from "../../../replays/as-seen.js";
import { toCurrent } from "../../../events/index.js";
import { logViewContext } from "../../views/log.js";
import type { EventStore } from "../../log/index.js";
import { defaultSecretsDir } from "../seat.js";
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
  /** Where a seat's audit (`--as`) writes its proof, when the log differs from a receipt it kept. */
  proof?: string;
  /** The secrets folder whose receipts file a local `--as` audit checks the log against. */
  secrets?: string;
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
    const seat = options.as;
    const view = seat === undefined ? undefined : await localSeatView(engine.store, campaign, seat, options);
    printAudit(report, view, options, print);
  });
}

/**
 * A seat's view chain in a local store checked against the receipts kept in its receipts file (`--secrets`, default
 * beside the database): undefined where the seat kept none, unless a proof is asked for.
 */
async function localSeatView(store: EventStore, campaign: string, seat: string, options: AuditCliOptions) {
  const path = receiptsPath(options.secrets ?? defaultSecretsDir(options.db), campaign, seat);
  const kept = await new FileReceiptBook(path).read();
  if (kept.serverKey === undefined && kept.receipts.length === 0 && kept.unreceipted.length === 0) {
    if (options.proof === undefined) return undefined;
    throw new CliError(
      `--proof: ${path} holds no receipt of ${seat}'s (a seat keeps them when it plays on a server: give --secrets the folder it played with)`,
    );
  }
  const events = (await store.readAll(campaign)).map(toCurrent);
  const context = logViewContext(events);
  const served = eventsAsSeen(events, seat, context);
  return checkSeatView({ campaign, seat, sealed: sealedContext(context.state), kept, served }, options.proof);
}

/** The audit's report, and the seat's view check when made; exit 2 naming the first finding when either fails. */
function printAudit(
  report: AuditReport,
  view: SeatViewCheck | undefined,
  options: AuditCliOptions,
  print: (line: string) => void,
): void {
  if (options.json) print(JSON.stringify(view ? { ...report, view: viewSummary(view.audit, view.proofPath) } : report));
  else [...renderAudit(report), ...(view ? renderViewAudit(view.audit, view.seat, view.proofPath) : [])].forEach(print);
  if (!report.ok) throw new CliError(auditSummary(report), EXIT.broken);
  if (view && (view.audit.differs || view.audit.withheld.length > 0))
    throw new CliError(
      view.audit.differs
        ? `seq ${view.audit.differs.seq}: ${view.audit.differs.what}`
        : `${view.audit.withheld.length} command(s) sent with no receipt are not in the log`,
      EXIT.broken,
    );
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
  printAudit(report, await auditSeatView(seat, options.proof), options, print);
}

/** The seat's view chain recomputed from the log as served and compared with the receipts it kept. */
async function auditSeatView(seat: RemoteSeat, proofPath: string | undefined): Promise<SeatViewCheck> {
  const kept = await seat.handler.receipts.read();
  const { events } = await seat.handler.log(seat.campaign);
  const state = await seat.handler.state(seat.campaign);
  const sealed = sealedContext(state);
  return checkSeatView({ campaign: seat.campaign, seat: seat.seat, sealed, kept, served: events }, proofPath);
}

interface SeatViewCheck {
  seat: string;
  audit: ViewAudit;
  proofPath: string | undefined;
}

/**
 * A seat's view chain of the campaign's own line checked against its receipts (src/client/view-audit.ts); the proof
 * written where the log differs from one.
 */
async function checkSeatView(
  input: Omit<ViewAuditInput, "line">,
  proofPath: string | undefined,
): Promise<SeatViewCheck> {
  const audit = auditView({ ...input, line: input.campaign });
  if (!audit.proof) return { seat: input.seat, audit, proofPath: undefined };
  const path = proofPath ?? proofFileName(input.campaign, input.seat);
  await writeFile(path, proofFileText(audit.proof));
  return { seat: input.seat, audit, proofPath: path };
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
      "with --as (or against a server): where to write the proof when the log differs from a receipt the seat kept (default CAMPAIGN-SEAT-proof.json)",
    )
    .addOption(viewAsOption())
    .addOption(branchOption())
    .addOption(secretsOption())
    .addHelpText(
      "after",
      "\nWhat is checked and why the dice are fair: docs/fair-dice.md. Orders not yet revealed and rolls whose host seed is still secret are pending, not failures.",
    )
    .action(
      action((options: AuditCliOptions, command: Command) => {
        const remote = server(command);
        return remote ? remoteAudit(remote, options, io, print) : runAudit(options, print);
      }),
    );
}
