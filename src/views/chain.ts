/**
 * A seat's view chain (docs/signatures.md, View chains): a hash chain over the events of a line as that seat sees
 * them, which the server signs the head of in every receipt and a client recomputes from what it was shown. Each
 * event enters it as its sealed view: every secret that is not the seat's own left out, revealed since or not, so that
 * an event enters the chain alike whenever and from whichever copy it is computed (the log as stored, or an event as
 * the server showed the seat, with what it had revealed by then), and nothing hidden from the seat can be tried
 * against it: a hidden field is absent, not hashed.
 */
import { toCurrent, type CurrentEvent, type StoredEvent } from "../../events/index.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { canonicalJson, digestHex } from "../crypto/commitments.js";
import { seesAll, viewEvent, type PlayerEvent, type ViewContext, type Viewer } from "./view.js";

/** The head of every view chain before its first event (seq 0). */
export const VIEW_GENESIS = "0".repeat(64);

/** An event as it enters a seat's view chain: its envelope and data, with the paths of the data it leaves out. */
export interface ViewEntry {
  stream: string;
  seq: number;
  type: string;
  version: number;
  at: string;
  actor: string;
  data: unknown;
  /** The secret fields left out of `data`, as paths ("data.commander"); empty when none is. */
  hidden: string[];
}

/**
 * The context a sealed view is judged in: the line's set-up (whether it plays with fog of war, A2) and nothing else,
 * so that no secret counts as revealed (a SecretField's `revealed` answers false when the context cannot tell).
 */
export function sealedContext(state: Pick<CampaignState, "setup">): ViewContext {
  return { state: { ...initialState, setup: state.setup } };
}

/** An event as stored, or as a seat was shown it. */
type Viewable = StoredEvent | CurrentEvent | PlayerEvent;

/** The entry of an event in `seat`'s view chain: its sealed view, with every field hidden from the seat absent. */
export function viewEntry(event: Viewable, seat: Viewer, sealed: ViewContext): ViewEntry {
  const current = toCurrent(event as StoredEvent);
  const { stream, seq, type, version, at, actor } = current;
  if (seesAll(seat)) return { stream, seq, type, version, at, actor, data: current.data, hidden: [] };
  const viewed = viewEvent(current, seat, sealed) as PlayerEvent;
  const hidden = viewed.redacted ?? [];
  return { stream, seq, type, version, at, actor, data: leaveOut(viewed.data, hidden), hidden };
}

/** A copy of the data without the fields at `paths` ("data.field" or "data.field.member"). */
function leaveOut(data: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return data;
  const copy = structuredClone(data) as Record<string, unknown>;
  for (const path of paths) {
    const parts = path.split(".").slice(1);
    let holder: Record<string, unknown> | undefined = copy;
    for (const part of parts.slice(0, -1)) holder = holder?.[part] as Record<string, unknown> | undefined;
    if (holder && typeof holder === "object") delete holder[parts.at(-1)!];
  }
  return copy;
}

/** The hash of an entry's text: the SHA-256 (hex) of its RFC 8785 canonical JSON. */
export const entryHash = (entry: ViewEntry): string => digestHex(canonicalJson(entry));

/** The head after one more entry: SHA-256 (hex) of the head before it (64 hex) followed by the entry's hash. */
export const nextView = (head: string, entry: ViewEntry): string => digestHex(head + entryHash(entry));

/** A seat's view chain as it grows: its head after the events given so far, which must come in seq order. */
export class ViewChain {
  constructor(
    readonly seat: Viewer,
    private readonly sealed: ViewContext,
    public seq = 0,
    public head = VIEW_GENESIS,
  ) {}

  /** The chain at the same point, to advance without moving this one. */
  copy(): ViewChain {
    return new ViewChain(this.seat, this.sealed, this.seq, this.head);
  }

  /** Takes the events after those taken so far (earlier ones are skipped); the entries it took, in order. */
  advance(events: Iterable<Viewable>): ViewEntry[] {
    const taken: ViewEntry[] = [];
    for (const event of events) {
      if (event.seq <= this.seq) continue;
      if (event.seq !== this.seq + 1)
        throw new RangeError(`the view chain is at seq ${this.seq}; event ${event.seq} does not follow it`);
      const entry = viewEntry(event, this.seat, this.sealed);
      this.head = nextView(this.head, entry);
      this.seq = event.seq;
      taken.push(entry);
    }
    return taken;
  }
}
