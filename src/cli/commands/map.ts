import { writeFile } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { Order } from "../../../events/common.js";
import { stateContext } from "../../../replays/as-seen.js";
import { DEFAULT_SQUARE_SIZE, renderMap } from "../../map/render-map.js";
import { ownHeldOrders, viewState, type ViewContext, type Viewer } from "../../views/view.js";
import { CliError } from "../errors.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { asCliError, positionOf } from "./branch.js";
import { addPositionOptions, type CliKit, type SeatCliOptions } from "./kit.js";
import { seatViewer, warnIfBroken } from "./show.js";

type MapCliOptions = SeatCliOptions & { turn?: string; phase?: string; seq?: string; square: string; out?: string };

/**
 * The map as SVG from a context: the view the viewer may see (the same as `state --as` reads), with its own held
 * orders, drawn by the one renderer the server and the web page use (src/map).
 */
export function mapOutput(
  context: ViewContext,
  viewer: Viewer,
  heldOrders: Record<string, Order>,
  squareSize: number,
): string {
  if (context.state.setup === null) throw new CliError("there is no map at that point: the campaign is not set up yet");
  return renderMap(viewState(context.state, viewer, context), {
    ...(viewer === undefined ? {} : { viewer }),
    heldOrders,
    squareSize,
  });
}

/** `--square PX`: a whole number of pixels, as renderMap takes them. */
function squareSizeOf(text: string): number {
  if (!/^[1-9][0-9]{0,2}$/.test(text) || Number(text) < 8 || Number(text) > 512)
    throw new CliError(`--square must be a number of pixels from 8 to 512, not "${text}"`);
  return Number(text);
}

/** Registers `map`: the map now, or at a point of the log, as SVG on stdout or in a file. */
export function registerMap(program: Command, kit: CliKit): void {
  const { action, io } = kit;
  const command = program
    .command("map")
    .description(
      "draw the map as SVG (terrain, roads, objectives, home bases, defences, armies, battles, this turn's moves): now, where a turn or phase began (--turn, --phase) or after an event (--seq)",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(new Option("--as <player>", "draw what this player may see, with its own hidden orders"))
    .addOption(kit.secretsOption())
    .addOption(kit.branchOption());
  addPositionOptions(command, "the map")
    .option("--square <px>", "pixels per square", String(DEFAULT_SQUARE_SIZE))
    .option("--out <file>", "write the SVG to this file instead of standard output")
    .action(
      action(async (options: MapCliOptions) => {
        const position = positionOf(options);
        const squareSize = squareSizeOf(options.square);
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const seat = new Seat(engine, options);
          const stream = await seat.campaign();
          const viewer = seatViewer(seat);
          // A map shows the battles of its turn only: the settled ones are not read.
          const context = await stateContext(engine.store, stream, viewer, position, { settled: false }).catch(
            asCliError,
          );
          const held = await ownHeldOrders(context.state, viewer, seat.secrets(stream));
          const svg = mapOutput(context, viewer, held, squareSize);
          if (options.out === undefined) io.stdout(svg);
          else await writeFile(options.out, svg, "utf8");
          await warnIfBroken(engine, stream);
        });
      }),
    );
}
