import { toCurrent } from "../../../events/index.js";
import type { Position } from "../../../replays/positions.js";
import { Replays } from "../../../replays/replayer.js";
import { ownHeldOrders, seesAll } from "../../views.js";
import { logViewContext } from "../../views-log.js";
import { CliError } from "../errors.js";
import type { Seat } from "../seat.js";
import { asCliError } from "./branch.js";
import { seatViewer, stateOutput } from "./show.js";

/**
 * `epicwar state --turn N [--phase P] | --seq N`: the state at a point of the log, as the seat's viewer may see it.
 * For everything the log shows (no --as, or the host) it is read from the nearest snapshot and the events after it;
 * a player's view is judged from the log up to that point (which commanders were killed by then), replayed in full.
 */
export async function showStateAt(seat: Seat, position: Position, json: boolean): Promise<string> {
  const stream = await seat.campaign();
  const replays = new Replays(seat.engine.store);
  const viewer = seatViewer(seat);
  try {
    const seq = await replays.resolve(stream, position);
    if (seesAll(viewer)) {
      const { state } = await replays.stateAtSeq(stream, seq);
      return stateOutput({ state }, viewer, {}, json);
    }
    const context = logViewContext((await seat.engine.store.readAll(stream, 1, seq)).map(toCurrent));
    if (!context.state.setup?.players.some((p) => p.id === viewer))
      throw new CliError(`"${viewer}" is not a player of ${stream}`);
    return stateOutput(context, viewer, await ownHeldOrders(context.state, viewer, seat.secrets(stream)), json);
  } catch (error) {
    return asCliError(error);
  }
}
