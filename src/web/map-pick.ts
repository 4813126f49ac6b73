import { createContext } from "preact";
import type { Dispatch, StateUpdater } from "preact/hooks";
import type { Square } from "../../events/common.js";

/**
 * A square a form asks the player to pick on the map (a new army's, defences'): the squares it may be, outlined on
 * the map, and what the form does with the one chosen. The map's pane takes it while it is asked.
 */
export interface SquarePick {
  /** The field asking. */
  by: string;
  /** What the square is for, said to a screen reader by the map. */
  label: string;
  squares: ReadonlySet<string>;
  choose: (square: Square) => void;
}

/** The square asked for now, if any, and how a form asks for one (or stops asking, with null). */
export const MapPick = createContext<{ pick: SquarePick | null; ask: Dispatch<StateUpdater<SquarePick | null>> }>({
  pick: null,
  ask: () => {},
});
