import type { StoredEvent } from "../../events/index.js";
import type { EventView } from "../views/view.js";

/** An event as a seat is served it: its own view of the stored event. */
export type SeatEvent = EventView<StoredEvent>;
