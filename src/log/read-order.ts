import { GENESIS_HASH, type StoredEvent } from "../../events/index.js";
import { CorruptEventError } from "./errors.js";
import { decodeEvent } from "./layout.js";

/**
 * Checks that the events one read of a stream gives follow on as the chain says: each stored under its own seq and
 * stream, none missing from the first seq asked for to the last found, each linking to the one before. A fold can
 * trust nothing less, and it costs a few comparisons an event; the hashes are verify's. A broken order is reported as
 * the CorruptEventError of the first seq that is not where it should be.
 */
export class ReadOrder {
  private prev: string | undefined;

  constructor(
    private readonly stream: string,
    /** The seq the next event must have. */
    public next: number,
  ) {
    this.prev = next === 1 ? GENESIS_HASH : undefined;
  }

  /** `keySeq`: the seq of the key the event was stored under, where the read knows it. */
  check(event: StoredEvent, keySeq = this.next): void {
    const seq = this.next;
    if (keySeq !== seq) throw new CorruptEventError(this.stream, seq, "is missing");
    if (event.seq !== seq || event.stream !== this.stream) {
      throw new CorruptEventError(
        this.stream,
        seq,
        `is missing or out of place: the event read in its place says it is ${String(event.stream)} #${String(event.seq)}`,
      );
    }
    if (this.prev !== undefined && event.prev !== this.prev)
      throw new CorruptEventError(this.stream, seq, `does not link to event ${seq - 1}`);
    this.prev = event.hash;
    this.next = seq + 1;
  }
}

/** One stored value of a read, decoded and checked to follow on (ReadOrder); one that is not JSON is corrupt. */
export function decodeInOrder(order: ReadOrder, stream: string, value: string, keySeq?: number): StoredEvent {
  let event: StoredEvent;
  try {
    event = decodeEvent(value);
  } catch {
    throw new CorruptEventError(stream, keySeq ?? order.next);
  }
  order.check(event, keySeq);
  return event;
}

/** The event stored at `seq` of `owner`'s own events, checked to be the one its key says. */
export function eventInPlace(line: string, owner: string, seq: number, value: string): StoredEvent {
  let event: StoredEvent;
  try {
    event = decodeEvent(value);
  } catch {
    throw new CorruptEventError(line, seq);
  }
  if (event.seq !== seq || event.stream !== owner) {
    throw new CorruptEventError(
      owner,
      seq,
      `is out of place: the event stored in its place says it is ${String(event.stream)} #${String(event.seq)}`,
    );
  }
  return event;
}
