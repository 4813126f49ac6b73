import { stateContext } from "../../../replays/as-seen.js";
import type { Position } from "../../../replays/positions.js";
import { ownHeldOrders } from "../../views/view.js";
import type { Seat } from "../seat.js";
import { asCliError } from "./branch.js";
import { seatViewer, stateOutput } from "./show.js";

/**
 * `epicwar state --turn N [--phase P] | --seq N`: the state at a point of the log, as the seat's viewer may see it.
 * For everything the log shows (no --as, or the host) it is read from the nearest snapshot and the events after it
 * (and, for JSON, the battles settled by then from the log up to it); a player's view is judged from the log up to that point (which commanders were killed by then), replayed in full.
 */
export async function showStateAt(seat: Seat, position: Position, json: boolean): Promise<string> {
  const stream = await seat.campaign();
  const viewer = seatViewer(seat);
  try {
    // Text shows the battles of the state's turn only: the settled ones are folded for JSON alone.
    const context = await stateContext(seat.engine.store, stream, viewer, position, { settled: json });
    return stateOutput(context, viewer, await ownHeldOrders(context.state, viewer, seat.secrets(stream)), json);
  } catch (error) {
    return asCliError(error);
  }
}
