import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import { Option, type Command } from "commander";
import { toCurrent } from "../../../events/index.js";
import { eventsAsSeen, requireViewer } from "../../../replays/as-seen.js";
import { exportPlan } from "../../../replays/export-plan.js";
import { turnMoments } from "../../../replays/turn-maps.js";
import type { Engine } from "../../engine/engine.js";
import { EXPORT_KIND, EXPORT_VERSION, exportLines } from "../../log/export-file.js";
import { DEFAULT_SQUARE_SIZE } from "../../map/render-map.js";
import { logViewContext } from "../../views/log.js";
import { ownHeldOrders, seesAll, type Viewer } from "../../views/view.js";
import { CliError } from "../errors.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import type { CliKit, SeatCliOptions } from "./kit.js";
import { mapOutput } from "./map.js";
import { seatViewer, warnIfBroken } from "./show.js";

type ExportCliOptions = SeatCliOptions & { out?: string; maps?: string };

/**
 * A seat's view of a line, as `log --json --as` shows it, after a header marked as a view: it hides the other side's
 * secrets and carries no hashes, so it is for reading, not for checking or importing.
 */
async function* viewLines(engine: Engine, stream: string, viewer: string): AsyncGenerator<string> {
  const events = await engine.store.readAll(stream);
  const context = logViewContext(events.map(toCurrent));
  requireViewer(context.state, viewer, stream);
  const meta = await engine.store.branch(stream);
  yield JSON.stringify({
    kind: EXPORT_KIND,
    version: EXPORT_VERSION,
    campaign: meta?.root ?? stream,
    line: meta?.name ?? "main",
    stream,
    view: viewer,
    seq: events.at(-1)?.seq ?? 0,
    note: "a seat's view: secrets of the other side hidden, no hashes; it cannot be verified as a chain nor imported",
  });
  for (const view of eventsAsSeen(events, viewer, context)) yield JSON.stringify(view);
}

/** Writes lines to a file, or through the CLI's stdout; one write per many lines. */
async function writeLines(lines: AsyncIterable<string>, out: string | undefined, stdout: (text: string) => void) {
  const file = out === undefined ? undefined : createWriteStream(out, { encoding: "utf8" });
  const failed = file && once(file, "error").then(([error]) => Promise.reject(error as Error));
  let chunk: string[] = [];
  const flush = async () => {
    const text = chunk.length ? `${chunk.join("\n")}\n` : "";
    chunk = [];
    if (!file) return stdout(text);
    if (!file.write(text)) await Promise.race([once(file, "drain"), failed]);
  };
  try {
    for await (const line of lines) {
      chunk.push(line);
      if (chunk.length >= 1000) await flush();
    }
    await flush();
  } finally {
    file?.end();
  }
  if (file) await Promise.race([once(file, "finish"), failed]);
}

/** One SVG per turn, where its Battle phase began (the turn under way: now), as the seat may see it. */
async function writeTurnMaps(seat: Seat, stream: string, viewer: Viewer, dir: string): Promise<string[]> {
  const events = await seat.engine.store.readAll(stream);
  const written: string[] = [];
  await mkdir(dir, { recursive: true });
  for (const moment of turnMoments(events)) {
    requireViewer(moment.context.state, viewer, stream);
    const held = moment.now ? await ownHeldOrders(moment.context.state, viewer, seat.secrets(stream)) : {};
    const name = `turn-${String(moment.turn).padStart(3, "0")}.svg`;
    await writeFile(join(dir, name), mapOutput(moment.context, viewer, held, DEFAULT_SQUARE_SIZE), "utf8");
    written.push(name);
  }
  return written;
}

/** Registers `export`: a campaign's line as JSON Lines (docs/storage.md, "Export files"), and its maps turn by turn. */
export function registerExport(program: Command, kit: CliKit): void {
  const { action, io } = kit;
  program
    .command("export")
    .description(
      "write a campaign with its branches as JSON Lines, the events exactly as stored and hashed (epicwar import reads it); or a seat's view of it (--as); or one SVG map per turn (--maps)",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.branchOption())
    .option("--out <file>", "write to this file instead of standard output")
    .addOption(new Option("--as <player>", "export what this player may see (a view: no hashes, not importable)"))
    .addOption(kit.secretsOption())
    .option("--maps <dir>", "write one SVG map per turn into this folder (where each turn's Battle phase began)")
    .action(
      action(async (options: ExportCliOptions) => {
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const seat = new Seat(engine, options);
          const stream = await seat.campaign();
          const viewer = seatViewer(seat);
          if (options.maps !== undefined) {
            const written = await writeTurnMaps(seat, stream, viewer, options.maps);
            if (written.length === 0) throw new CliError(`${stream} has no turn to draw yet`);
            io.stderr(`wrote ${written.length} maps to ${options.maps} (${written[0]} to ${written.at(-1)})\n`);
          }
          if (options.maps === undefined || options.out !== undefined) {
            const lines = seesAll(viewer)
              ? exportLines(engine.store, await exportPlan(engine.store, stream))
              : viewLines(engine, stream, viewer);
            await writeLines(lines, options.out, io.stdout);
          }
          await warnIfBroken(engine, stream);
        });
      }),
    );
}
