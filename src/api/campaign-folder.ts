import type { BranchMeta } from "../log/layout.js";
import { hostBattleModel } from "../forecast/battle-model.js";
import type { Order } from "../../events/common.js";
import {
  auditAsSeen,
  describeAs,
  diffAsSeen,
  eventsAsSeen,
  lineView,
  linesAsSeen,
  requireViewer,
  stateAsSeen,
  type StateAsSeen,
  stateContext,
  type LineDiff,
  type Lines,
} from "../../replays/as-seen.js";
import type { AuditReport } from "../../replays/audit-report.js";
import { createBranch, lineStream, MAIN } from "../../replays/branches.js";
import { exportPlan } from "../../replays/export-plan.js";
import type { Position } from "../../replays/positions.js";
import { Replays } from "../../replays/replayer.js";
import { timeline, type TimelineEntry } from "../../replays/timeline.js";
import { secretsOfLog, type SecretKeeper } from "../client/secrets.js";
import { Table } from "../client/table.js";
import type { RandomHex } from "../client/prepare.js";
import { Engine, type Clock } from "../engine/engine.js";
import { exportLines } from "../log/export-file.js";
import { checkExport, type CheckedExport } from "../log/import-file.js";
import { verifyStream, type VerifyResult } from "../log/index.js";
import { describeRefusal, type Refusal } from "../rules/refusal.js";
import { setupCommands, type SetupFile } from "../setup/setup-file.js";
import { loadSetupFile } from "../setup/setup-loader.js";
import type { Catalogue } from "../../events/common.js";
import { ownHeldOrders, type EventView, type Viewer } from "../views/view.js";
import { catalogue, toCurrent, type StoredEvent } from "../../events/index.js";
import { logViewContext } from "../views/log.js";

/** A command the rules refused: its rule ID or field, and the sentence that says why. Nothing was written. */
export class CommandRefusedError extends Error {
  override readonly name = "CommandRefusedError";
  constructor(readonly refusal: Refusal) {
    super(describeRefusal(refusal));
  }
}

export interface OpenOptions {
  /** Flush every append to disk before it is acknowledged (default true). */
  sync?: boolean;
  /** Where recorded times come from (default: the system clock). */
  clock?: Clock;
  /** Create the folder (or the tables) when there is no log there yet (default true). */
  createIfMissing?: boolean;
}

/** What every read takes: whose view (a player id, "host", or none for the organiser's whole log) and which line. */
export interface ReadOptions {
  /** Show only what this player may see (docs/views.md); "host" or none: the log as stored. */
  as?: Viewer;
  /** A branch's name ("main", or none: the campaign's own line). */
  branch?: string;
}

export interface SeatOptions {
  /** The parties this seat acts for: player ids and/or "host" (default: every party, as at one shared machine). */
  parties?: readonly string[];
  /** Where the parties' hidden orders and dice seeds are kept: a folder (a secrets file per party), or a keeper. */
  secrets: string | SecretKeeper;
  /** The source of salts and seeds (default: the system's secure random). */
  random?: RandomHex;
}

/**
 * A folder of campaigns (an embedded LevelDB, or a PostgreSQL database named by a postgres:// URL: docs/scaling.md):
 * creating them, playing them as seats, and every read the CLI offers, each as a seat may see it. One process at a
 * time holds a LevelDB folder; close it when done.
 */
export class CampaignFolder {
  private constructor(private readonly engine: Engine) {}

  static async open(location: string, options: OpenOptions = {}): Promise<CampaignFolder> {
    return new CampaignFolder(await Engine.open(location, options));
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  /** The campaigns the folder holds (not their branches). */
  campaigns(): Promise<string[]> {
    return this.engine.listCampaigns();
  }

  /**
   * Creates a campaign from a set-up file (docs/setup-file.md): its path, or its contents with the catalogue in it.
   * Throws CommandRefusedError naming the rule or field a refused set-up breaks; nothing is then written.
   */
  async create(setup: string | (SetupFile & { catalogue: Catalogue })): Promise<string> {
    const file = typeof setup === "string" ? await loadSetupFile(setup) : setup;
    const outcome = await this.engine.create(setupCommands(file).map((step) => step.command));
    if (!outcome.ok) throw new CommandRefusedError(outcome.refusal);
    return file.campaign;
  }

  /**
   * A seat at a line of a campaign: it prepares its parties' commands (commitments, reveals, seeds) from their
   * secrets, gives them, and takes their protocol chores as they fall due (`Table`, docs/secrets.md).
   */
  async seat(campaign: string, options: SeatOptions & { branch?: string }): Promise<Table> {
    const stream = await this.line(campaign, options.branch);
    const secrets =
      typeof options.secrets === "string" ? secretsOfLog(options.secrets, stream, this.engine.store) : options.secrets;
    return new Table(this.engine, stream, {
      secrets,
      ...(options.parties ? { parties: new Set(options.parties) } : {}),
      ...(options.random ? { random: options.random } : {}),
      battleModel: hostBattleModel,
    });
  }

  /**
   * The campaign as the viewer may see it: now, or at a point of its line (`at`: a seq, or where a turn or one of
   * its phases began). A player's view holds its own hidden orders when its secrets are given. `derived` is what the
   * view implies, computed by the rules: each side's CVPs by source against the target, each battle's engagement.
   */
  async state(
    campaign: string,
    options: ReadOptions & { at?: Position; secrets?: string | SecretKeeper } = {},
  ): Promise<StateAsSeen> {
    const stream = await this.line(campaign, options.branch);
    const context = await stateContext(this.engine.store, stream, options.as, options.at);
    let held: Record<string, Order> = {};
    if (options.secrets !== undefined && options.at === undefined) {
      const keeper =
        typeof options.secrets === "string"
          ? secretsOfLog(options.secrets, stream, this.engine.store)
          : options.secrets;
      held = await ownHeldOrders(context.state, options.as, keeper);
    }
    return stateAsSeen(context, options.as, held);
  }

  /** Every event of the line, as the viewer may see it (a player's view has no hashes). */
  async log(campaign: string, options: ReadOptions = {}): Promise<EventView<StoredEvent>[]> {
    const stream = await this.line(campaign, options.branch);
    const events = await this.engine.store.readAll(stream);
    const context = logViewContext(events.map(toCurrent));
    requireViewer(context.state, options.as, stream);
    return eventsAsSeen(events, options.as, context);
  }

  /** The line in players' words, one entry per event, each with its turn and phase. */
  async timeline(campaign: string, options: ReadOptions & { fromTurn?: number } = {}): Promise<TimelineEntry[]> {
    const stream = await this.line(campaign, options.branch);
    const view = await lineView(this.engine.store, stream, options.as);
    const entries: TimelineEntry[] = [];
    const replays = new Replays(this.engine.store);
    for await (const batch of timeline(this.engine.store, replays, stream, {
      describe: describeAs(view),
      ...(options.fromTurn === undefined ? {} : { fromTurn: options.fromTurn }),
    }))
      entries.push(...batch);
    return entries;
  }

  /** The audit (docs/fair-dice.md): every commitment, move and die roll recomputed; `findings` empty when clean. */
  async audit(campaign: string, options: ReadOptions & { turn?: number } = {}): Promise<AuditReport> {
    const stream = await this.line(campaign, options.branch);
    const which = options.turn === undefined ? {} : { turn: options.turn };
    return (await auditAsSeen(this.engine.store, stream, options.as, which)).report;
  }

  /**
   * The hash chain of a line checked from its first event, and every signed command against its party's key in force
   * (as `epicwar verify`): intact, with its signature counts, or the first seq that is not.
   */
  async verify(campaign: string, options: { branch?: string } = {}): Promise<VerifyResult> {
    return verifyStream(this.engine.store, await this.line(campaign, options.branch), { signatures: true });
  }

  /**
   * A what-if line: branch `name` forked from a line (the campaign's own by default) at a point of it. No secret of the
   * parent reaches it (docs/replays.md): with the secrets folder, only the seat keys are carried over, and a fork where
   * commitments are open is declared by the host's ForkLine, which the host's key there signs (needed for such a fork).
   */
  async branch(
    campaign: string,
    options: { name: string; from: Position; parent?: string; secrets?: string },
  ): Promise<BranchMeta> {
    const parent = await this.line(campaign, options.parent);
    const store = this.engine.store;
    const { meta } = await createBranch(this.engine, new Replays(store), {
      campaign,
      parent,
      from: options.from,
      name: options.name,
      ...(options.secrets === undefined
        ? {}
        : {
            secrets: {
              parent: secretsOfLog(options.secrets, parent, store),
              branch: secretsOfLog(options.secrets, `${campaign}.${options.name}`, store),
            },
          }),
    });
    return meta;
  }

  /** The campaign's lines: its own and each branch, with where it forks and how far it has gone. */
  lines(campaign: string, options: { as?: Viewer } = {}): Promise<Lines> {
    return linesAsSeen(this.engine.store, campaign, options.as);
  }

  /** Two lines of a campaign compared now (by name: "main" or a branch's), as the viewer may see them. */
  async diff(campaign: string, a: string, b: string, options: { as?: Viewer } = {}): Promise<LineDiff> {
    const named = async (name: string) => ({ line: name, stream: await this.line(campaign, name) });
    return diffAsSeen(this.engine.store, await named(a), await named(b), options.as);
  }

  /** The lines of an export file (docs/storage.md, "Export files"): the campaign, or a branch with its ancestors. */
  async *export(campaign: string, options: { branch?: string } = {}): AsyncGenerator<string> {
    const stream = await this.line(campaign, options.branch);
    yield* exportLines(this.engine.store, await exportPlan(this.engine.store, stream));
  }

  /**
   * Reads an export file's lines into this folder: all of it is checked first (ImportError names the first bad
   * line), and a campaign or branch already here is refused (BranchError); either way nothing is written.
   */
  async import(lines: AsyncIterable<string> | Iterable<string>): Promise<CheckedExport["header"]> {
    const checked = await checkExport(lines, catalogue);
    await this.engine.store.importStreams(checked.streams);
    return checked.header;
  }

  /** The stream of a line: the campaign's own for "main" or none, else its branch's (BranchError when it has none). */
  private async line(campaign: string, branch: string | undefined): Promise<string> {
    if (!(await this.engine.listCampaigns()).includes(campaign))
      throw new RangeError(`no campaign "${campaign}" in this folder`);
    return branch === undefined || branch === MAIN ? campaign : lineStream(this.engine.store, campaign, branch);
  }
}
