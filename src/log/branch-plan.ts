import { STREAM_NAME } from "./append-check.js";
import { BranchError, CorruptEventError } from "./errors.js";
import type { EventStore } from "./event-store.js";
import { sha256Hex } from "./hash.js";
import { HASH_LENGTH, type BranchMeta } from "./layout.js";

export function checkStreamName(stream: string): void {
  if (!STREAM_NAME.test(stream))
    throw new RangeError(`stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`);
}

/**
 * Refuses (BranchError) a stream id taken in the log, by a head, a branch record, or events stored under it without a
 * head: what a new branch or an imported stream may not take.
 */
export async function refuseStreamInUse(store: EventStore, stream: string): Promise<void> {
  if (
    (await store.head(stream)).seq > 0 ||
    (await store.branch(stream)) !== undefined ||
    (await store.firstStoredFrom(stream, 1)) !== undefined
  )
    throw new BranchError(`${stream} already exists in this log`);
}

/**
 * The record of a new branch `stream` of `parent` at `forkSeq`, checked against the log before a store writes it with
 * the branch's head at (forkSeq, the parent's hash there): refused for a stream id already in use (events stored under
 * it without a head take it too: they are never overwritten) and for a fork point the parent does not have; the
 * parent's event at the fork must match its own hash.
 */
export async function planBranch(
  store: EventStore,
  stream: string,
  parent: string,
  forkSeq: number,
  options: { name?: string; created?: string },
): Promise<BranchMeta> {
  await refuseStreamInUse(store, stream);
  const parentHead = await store.head(parent);
  if (parentHead.seq === 0) throw new BranchError(`there is no stream ${parent} to branch from`);
  if (!Number.isInteger(forkSeq) || forkSeq < 1 || forkSeq > parentHead.seq) {
    throw new BranchError(`a branch of ${parent} forks at a seq from 1 to ${parentHead.seq}, not ${forkSeq}`);
  }
  const value = await store.valueAt(parent, forkSeq);
  if (value === undefined || sha256Hex(value.slice(HASH_LENGTH)) !== value.slice(0, HASH_LENGTH))
    throw new CorruptEventError(parent, forkSeq);
  const parentMeta = await store.branch(parent);
  return {
    stream,
    name: options.name ?? stream,
    parent,
    root: parentMeta?.root ?? parent,
    forkSeq,
    forkHash: value.slice(0, HASH_LENGTH),
    created: options.created ?? new Date().toISOString(),
  };
}
