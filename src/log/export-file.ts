import type { EventStore } from "./store.js";
import { HASH_LENGTH, type BranchMeta, type Head } from "./layout.js";

/** The first member of an export file's first line: what the file is. */
export const EXPORT_KIND = "epicwar-export";
/** The version of the export format this code writes and reads (docs/storage.md, "Export files"). */
export const EXPORT_VERSION = 1;

/** An export file's first line: what it holds. */
export interface ExportHeader {
  kind: typeof EXPORT_KIND;
  version: typeof EXPORT_VERSION;
  campaign: string;
  /** The line exported: the campaign's own ("main") or a branch's name. */
  line: string;
  /** The stream of that line, and its head: what an import must end on. */
  stream: string;
  head: Head;
  /** Every stream the file holds, in order: the campaign first, each branch after its parent. */
  streams: string[];
  /** Set for a seat's view (`export --as`): events as that seat sees them, which cannot be checked as a chain. */
  view?: string;
}

/** A line of an export after the first: a branch's record, an event as stored, a stream's head. */
export type ExportLine =
  | ({ kind: "branch" } & BranchMeta)
  | { kind: "event"; stream: string; seq: number; hash: string; body: string }
  | { kind: "head"; stream: string; seq: number; hash: string };

/** What is exported: the campaign, the line asked for and its stream, and the streams to write in order. */
export interface ExportPlan {
  campaign: string;
  line: string;
  stream: string;
  streams: ReadonlyArray<{ stream: string; branch?: BranchMeta }>;
}

/**
 * The lines of an export file, each a JSON text (no newline): the header, then each stream in turn, a branch's
 * record first, its own events exactly as stored (the hashed bytes, never re-encoded), then its head. All of it is
 * read at one point of the log, so that the events and heads agree with each other.
 */
export async function* exportLines(store: EventStore, plan: ExportPlan): AsyncGenerator<string> {
  const readPoint = store.readPoint();
  try {
    const header: ExportHeader = {
      kind: EXPORT_KIND,
      version: EXPORT_VERSION,
      campaign: plan.campaign,
      line: plan.line,
      stream: plan.stream,
      head: await store.storedHead(plan.stream, readPoint),
      streams: plan.streams.map((s) => s.stream),
    };
    yield JSON.stringify(header);
    for (const { stream, branch } of plan.streams) {
      if (branch) yield JSON.stringify({ kind: "branch", ...branch } satisfies ExportLine);
      for await (const batch of store.rawBatches(stream, branch ? branch.forkSeq + 1 : 1, undefined, readPoint)) {
        for (const [seq, value] of batch) {
          const line: ExportLine = {
            kind: "event",
            stream,
            seq,
            hash: value.slice(0, HASH_LENGTH),
            body: value.slice(HASH_LENGTH),
          };
          yield JSON.stringify(line);
        }
      }
      const head = await store.storedHead(stream, readPoint);
      yield JSON.stringify({ kind: "head", stream, ...head } satisfies ExportLine);
    }
  } finally {
    await readPoint.close();
  }
}
