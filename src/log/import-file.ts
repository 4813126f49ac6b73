import { ENVELOPE_MEMBERS, GENESIS_HASH, type EventCatalogue } from "../../events/index.js";
import { Id } from "../../events/common.js";
import { EXPORT_KIND, EXPORT_VERSION, type ExportHeader } from "./export-file.js";
import { sha256Hex } from "./hash.js";
import { encodeEvent, type BranchMeta, type Head } from "./layout.js";
import { envelopeProblem } from "./append-check.js";
import type { ImportedStream } from "./event-store.js";

/**
 * An export file that cannot be imported, found before anything is written: the number of the first bad line (1 is
 * the header) and what is wrong with it. `broken` is set when the file's chain does not hold (a hash, a link, a seq,
 * a head): the file is a damaged or edited log, as opposed to one that is not an export at all.
 */
export class ImportError extends Error {
  override readonly name = "ImportError";
  constructor(
    readonly line: number,
    readonly problem: string,
    readonly broken = false,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

/** An export whose every line was checked: what it holds, ready for EventStore.importStreams. */
export interface CheckedExport {
  header: ExportHeader;
  streams: ImportedStream[];
  events: number;
}

const ID = new RegExp(Id.pattern!);
const HASH = /^[0-9a-f]{64}$/;

/** A stream of the file as it is read: its values so far, and the seq and link the next event must have. */
interface OpenStream extends ImportedStream {
  values: string[];
  next: number;
  prev: string;
  closed: boolean;
}

/**
 * Reads an export file line by line (the lines without their newlines) and checks all of it: the header, then for each
 * stream the order the header gives, every event's hash over its body as given, its place (stream and seq), its link
 * to the one before (a branch's first to its parent's event at the fork), its envelope and its data against the
 * catalogue at its version, and each stream's head. Throws ImportError naming the first line that does not hold. Each
 * value is kept exactly as it will be stored (hash and body), never re-encoded.
 */
export async function checkExport(
  lines: AsyncIterable<string> | Iterable<string>,
  catalogue: EventCatalogue,
): Promise<CheckedExport> {
  const check = new ExportCheck(catalogue);
  for await (const line of lines) check.line(line);
  return check.end();
}

/** checkExport over the file's lines read in batches (textLineBatches): one await a batch rather than a line. */
export async function checkExportBatches(
  batches: AsyncIterable<readonly string[]>,
  catalogue: EventCatalogue,
): Promise<CheckedExport> {
  const check = new ExportCheck(catalogue);
  for await (const batch of batches) for (const line of batch) check.line(line);
  return check.end();
}

/**
 * Event lines in a row of one stream, each checked by itself elsewhere (checkEventAlone: its hash, body, envelope and
 * data), whose seqs follow on and each of which links to the one before it: what is left to check is where the first
 * one stands. Its values are the events' stored values, in order.
 */
export interface CheckedRun {
  stream: string;
  first: number;
  firstPrev: string;
  lastHash: string;
  values: string[];
}

/** An export file's lines checked in order (checkExport): given one by one, or as runs of events checked elsewhere. */
export class ExportCheck {
  private number = 0;
  private header: ExportHeader | undefined;
  private readonly streams: OpenStream[] = [];
  private readonly byName = new Map<string, OpenStream>();
  private current: OpenStream | undefined;
  private events = 0;

  constructor(private readonly catalogue: EventCatalogue) {}

  /** The hash of the event at `seq` of a stream's line in the file: its own, or its parent's line's before the fork. */
  private hashAt(stream: OpenStream, seq: number): string | undefined {
    if (seq === 0) return GENESIS_HASH;
    if (seq >= stream.first) return stream.values[seq - stream.first]?.slice(0, 64);
    const parent = stream.branch && this.byName.get(stream.branch.parent);
    return parent && this.hashAt(parent, seq);
  }

  private open(name: string, branch: BranchMeta | undefined): OpenStream {
    const fail = (problem: string) => new ImportError(this.number, problem);
    const { current, streams } = this;
    if (current && !current.closed) throw fail(`${current.stream} has no head line before ${name} begins`);
    const expected = this.header!.streams[streams.length];
    if (expected === undefined) throw fail(`${name} is not one of the streams the header lists`);
    if (name !== expected) throw fail(`the header lists ${expected} next, not ${name}`);
    const first = branch ? branch.forkSeq + 1 : 1;
    const stream: OpenStream = {
      stream: name,
      ...(branch ? { branch } : {}),
      first,
      values: [],
      head: { seq: 0, hash: GENESIS_HASH },
      next: first,
      prev: branch ? branch.forkHash : GENESIS_HASH,
      closed: false,
    };
    streams.push(stream);
    this.byName.set(name, stream);
    return stream;
  }

  /** The stream an event of `name` on the line being read belongs to: the one open, or the campaign's, opened now. */
  private streamOfEvent(name: string): OpenStream {
    if (this.current !== undefined && !this.current.closed) return this.current;
    // Only the campaign's own stream starts with an event; a branch starts with its record.
    const header = this.header!;
    const next = header.streams[this.streams.length];
    if (next !== header.campaign || name !== next)
      throw new ImportError(
        this.number,
        next === undefined
          ? `an event of ${name} after every stream the header lists`
          : next === header.campaign
            ? `an event of ${name} where ${next}'s events begin`
            : `an event of ${name} where ${next}'s branch line is due`,
      );
    return (this.current = this.open(name, undefined));
  }

  /** The next line of the file. */
  line(text: string): void {
    const number = ++this.number;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ImportError(number, "is not a line of JSON");
    }
    if (typeof line !== "object" || line === null || Array.isArray(line))
      throw new ImportError(number, "is not a JSON object");
    if (this.header === undefined) {
      this.header = checkHeader(line, number);
      return;
    }
    const { current } = this;
    switch (line["kind"]) {
      case "branch": {
        const branch = checkBranch(line, number, this.header);
        const parent = this.byName.get(branch.parent);
        if (!parent?.closed)
          throw new ImportError(number, `${branch.stream}'s parent ${branch.parent} is not before it`);
        if (!(branch.forkSeq >= 1 && branch.forkSeq <= parent.head.seq))
          throw new ImportError(
            number,
            `${branch.stream} forks at ${branch.forkSeq}, outside ${branch.parent}'s 1 to ${parent.head.seq}`,
            true,
          );
        if (this.hashAt(parent, branch.forkSeq) !== branch.forkHash)
          throw new ImportError(
            number,
            `${branch.stream}'s forkHash is not the hash of ${branch.parent}'s event ${branch.forkSeq}`,
            true,
          );
        this.current = this.open(branch.stream, branch);
        return;
      }
      case "event": {
        const name = line["stream"];
        if (typeof name !== "string") throw new ImportError(number, "stream must be a stream id");
        checkEvent(line, number, this.streamOfEvent(name), this.catalogue);
        this.events++;
        return;
      }
      case "head": {
        if (current === undefined || current.closed || line["stream"] !== current.stream)
          throw new ImportError(number, `a head line of ${String(line["stream"])} where none is due`);
        const head: Head = { seq: current.next - 1, hash: current.prev };
        if (line["seq"] !== head.seq || line["hash"] !== head.hash)
          throw new ImportError(
            number,
            `${current.stream}'s head says #${String(line["seq"])} ${String(line["hash"]).slice(0, 16)}, but its events end at #${head.seq} ${head.hash.slice(0, 16)}`,
            true,
          );
        current.head = head;
        current.closed = true;
        return;
      }
      default:
        throw new ImportError(number, `kind must be "branch", "event" or "head", not ${JSON.stringify(line["kind"])}`);
    }
  }

  /**
   * The next lines of the file, after its header: a run of events checked by themselves. The first is checked for its
   * place and link as line() checks an event, in the same order and with the same words, after the checks the run
   * has passed.
   */
  eventRun(run: CheckedRun): void {
    this.number++;
    const stream = this.streamOfEvent(run.stream);
    const broken = (problem: string) => brokenEvent(this.number, stream.stream, stream.next, problem);
    if (run.stream !== stream.stream) throw broken(`is missing: the line is ${run.stream}'s`);
    if (run.first !== stream.next) throw broken(`is missing: the line is #${run.first}`);
    if (run.firstPrev !== stream.prev) throw broken("does not link to the event before it");
    for (const value of run.values) stream.values.push(value);
    stream.prev = run.lastHash;
    stream.next += run.values.length;
    this.number += run.values.length - 1;
    this.events += run.values.length;
  }

  /** The file has ended: what it holds, if every stream is whole and the header's head is its line's. */
  end(): CheckedExport {
    const { header, current, streams, number } = this;
    if (header === undefined) throw new ImportError(1, "the file is empty: an export starts with its header line");
    const missing = header.streams.slice(streams.length);
    if (missing.length > 0 || (current && !current.closed))
      throw new ImportError(
        number + 1,
        `the file ends before ${missing[0] ?? current!.stream} is complete (cut short?)`,
        true,
      );
    const exported = this.byName.get(header.stream)!;
    if (exported.head.seq !== header.head.seq || exported.head.hash !== header.head.hash)
      throw new ImportError(
        1,
        `the header's head (#${header.head.seq}) is not ${header.stream}'s head in the file (#${exported.head.seq})`,
        true,
      );
    return {
      header,
      streams: streams.map(({ stream, branch, first, values, head }) => ({
        stream,
        ...(branch ? { branch } : {}),
        first,
        values,
        head,
      })),
      events: this.events,
    };
  }
}

function checkHeader(line: Record<string, unknown>, number: number): ExportHeader {
  const fail = (problem: string) => new ImportError(number, problem);
  if (line["kind"] === "event" || line["kind"] === "head")
    throw fail("this is a raw log (epicwar log --raw), not an export: export the campaign with epicwar export");
  if (line["kind"] !== EXPORT_KIND) throw fail(`is not the header of an epicwar export (kind "${EXPORT_KIND}")`);
  if (line["version"] !== EXPORT_VERSION)
    throw fail(
      `the export format's version is ${JSON.stringify(line["version"])}; this epicwar reads version ${EXPORT_VERSION}`,
    );
  if (line["view"] !== undefined)
    throw fail(
      `this file is ${JSON.stringify(line["view"])}'s view of the campaign (exported with --as): a view hides secrets and has no hashes, so it cannot be checked as a chain nor imported; import an export made without --as`,
    );
  const { campaign, line: lineName, stream, head, streams } = line;
  if (typeof campaign !== "string" || !ID.test(campaign)) throw fail("campaign must be a campaign id");
  if (typeof lineName !== "string") throw fail("line must name the line exported");
  if (!Array.isArray(streams) || streams.length === 0 || !streams.every((s) => typeof s === "string" && ID.test(s)))
    throw fail("streams must list the stream ids the file holds");
  if (streams[0] !== campaign) throw fail(`streams must begin with the campaign, ${campaign}`);
  if (new Set(streams).size !== streams.length) throw fail("streams lists a stream twice");
  if (typeof stream !== "string" || !streams.includes(stream)) throw fail("stream must be one of streams");
  const given = head as Partial<Head> | null;
  if (typeof given !== "object" || given === null || !Number.isInteger(given.seq) || !HASH.test(String(given.hash)))
    throw fail("head must be {seq, hash}");
  return {
    kind: EXPORT_KIND,
    version: EXPORT_VERSION,
    campaign,
    line: lineName,
    stream,
    head: { seq: given.seq!, hash: given.hash! },
    streams: streams as string[],
  };
}

function checkBranch(line: Record<string, unknown>, number: number, header: ExportHeader): BranchMeta {
  const fail = (problem: string) => new ImportError(number, problem);
  const { stream, name, parent, root, forkSeq, forkHash, created } = line;
  if (typeof stream !== "string" || !ID.test(stream)) throw fail("stream must be a stream id");
  if (typeof name !== "string" || name === "") throw fail("name must be the branch's name");
  if (typeof parent !== "string" || !ID.test(parent)) throw fail("parent must be a stream id");
  if (root !== header.campaign) throw fail(`root must be the campaign, ${header.campaign}`);
  if (!Number.isInteger(forkSeq)) throw fail("forkSeq must be a whole number");
  if (typeof forkHash !== "string" || !HASH.test(forkHash)) throw fail("forkHash must be 64 hex characters");
  if (typeof created !== "string") throw fail("created must be a date-time");
  return { stream, name, parent, root, forkSeq: forkSeq as number, forkHash, created };
}

/** Checks one event line against the stream it continues, and keeps its value. */
function checkEvent(
  line: Record<string, unknown>,
  number: number,
  stream: OpenStream,
  catalogue: EventCatalogue,
): void {
  const { hash, value, prev } = checkedEvent(line, number, stream.stream, stream.next, catalogue);
  if (prev !== stream.prev)
    throw brokenEvent(number, stream.stream, stream.next, "does not link to the event before it");
  stream.values.push(value);
  stream.prev = hash;
  stream.next++;
}

/** The error of line `number`, an event that breaks the file's chain where it stands (at `next` of `stream`). */
function brokenEvent(number: number, stream: string, next: number, problem: string): ImportError {
  return new ImportError(number, `event ${stream} #${next} ${problem}`, true);
}

/**
 * An event line checked as the event at `next` of `stream`, all but its link to the event before it: its place, its
 * hash over its body, its body's envelope and its data at its version. Its stored value, and the link its body gives.
 */
export function checkedEvent(
  line: Record<string, unknown>,
  number: number,
  stream: string,
  next: number,
  catalogue: EventCatalogue,
): { hash: string; value: string; prev: unknown } {
  const broken = (problem: string) => brokenEvent(number, stream, next, problem);
  const { seq, hash, body } = line;
  if (line["stream"] !== stream) throw broken(`is missing: the line is ${String(line["stream"])}'s`);
  if (seq !== next) throw broken(`is missing: the line is #${String(seq)}`);
  const malformed = () => new ImportError(number, "an event line has a hash (64 hex characters) and a body (a string)");
  if (typeof hash !== "string" || typeof body !== "string") throw malformed();
  // A hash equal to its body's SHA-256 is 64 hex characters: its shape is checked only to tell which error it is.
  if (sha256Hex(body) !== hash)
    throw HASH.test(hash) ? broken("does not match its hash: its body was changed") : malformed();
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw broken("has a body that is not JSON");
  }
  if (typeof envelope !== "object" || envelope === null) throw broken("has a body that is not a JSON object");
  if (envelope["stream"] !== stream || envelope["seq"] !== seq)
    throw broken(`says it is ${String(envelope["stream"])} #${String(envelope["seq"])}`);
  const extra = Object.keys(envelope).filter((member) => !ENVELOPE_MEMBERS.has(member));
  if (extra.length > 0)
    throw new ImportError(
      number,
      `event ${stream} #${next}: ${extra.join(", ")}: not a member of an envelope (docs/storage.md: ${[...ENVELOPE_MEMBERS].join(", ")})`,
    );
  const { type, version, at, actor, data, command } = envelope;
  const problem =
    envelopeProblem({ type, version, at, actor, data, ...(command === undefined ? {} : { command }) }) ??
    catalogue.checkStored({ type, version, data } as never);
  if (problem) throw new ImportError(number, `event ${stream} #${next}: ${problem.field} ${problem.message}`);
  return { hash, value: encodeEvent(hash, body), prev: envelope["prev"] };
}

/** A block's piece as checkBlock gives it: a line to check in order (check.line), or a run of events checked alone. */
export type BlockPiece = { line: string } | { run: Omit<CheckedRun, "values"> & { values: string } };

/**
 * The lines of a block of an export file (textBlocks) with each event line checked by itself (checkedEvent at its own
 * place), so that another thread can: the event lines that hold, in runs of one stream whose seqs follow on and link,
 * each run's values joined by "\n" (a stored value holds no newline); every other line, and an event line that does
 * not hold, as it is, for ExportCheck to check in order and to name what is wrong with it.
 */
export function checkBlock(lines: readonly string[], catalogue: EventCatalogue): BlockPiece[] {
  const pieces: BlockPiece[] = [];
  let run: { stream: string; first: number; firstPrev: string; lastHash: string; values: string[] } | undefined;
  const endRun = () => {
    if (run) pieces.push({ run: { ...run, values: run.values.join("\n") } });
    run = undefined;
  };
  for (const text of lines) {
    const event = eventAlone(text, catalogue);
    if (!event) {
      endRun();
      pieces.push({ line: text });
      continue;
    }
    const { stream, seq, hash, value, prev } = event;
    if (!run || run.stream !== stream || run.first + run.values.length !== seq || run.lastHash !== prev) {
      endRun();
      run = { stream, first: seq, firstPrev: prev, lastHash: hash, values: [value] };
    } else {
      run.values.push(value);
      run.lastHash = hash;
    }
  }
  endRun();
  return pieces;
}

/** An event line that holds by itself (checkedEvent at the place it says it has), or undefined. */
function eventAlone(text: string, catalogue: EventCatalogue) {
  try {
    const line = JSON.parse(text) as Record<string, unknown>;
    const { kind, stream, seq } = line ?? {};
    if (kind !== "event" || typeof stream !== "string" || typeof seq !== "number") return undefined;
    const { hash, value, prev } = checkedEvent(line, 0, stream, seq, catalogue);
    return typeof prev === "string" ? { stream, seq, hash, value, prev } : undefined;
  } catch {
    return undefined;
  }
}
