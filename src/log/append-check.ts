import { Ajv } from "ajv";
import {
  describeAjvError,
  NewEventSchema,
  type EventCatalogue,
  type NewEvent,
  type SchemaProblem,
  type StoredEvent,
} from "../../events/index.js";
import { Id } from "../../events/common.js";
import { canonicalJson } from "../crypto/commitments.js";
import { InvalidEventError } from "./errors.js";
import { canonicalPlainJson, sha256Hex } from "./hash.js";
import { encodeEvent } from "./layout.js";

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** The last text isDateTime accepted: the events of one batch, and of one export, mostly share their time. */
let lastDateTime = "";

/** RFC 3339 date-time: the shape, and a real calendar date and time of day (no month 13, 30 February or hour 25). */
function isDateTime(text: string): boolean {
  if (text === lastDateTime) return true;
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return false;
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6]) > 60) return false;
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return false;
  lastDateTime = text;
  return true;
}

const envelopeAjv = new Ajv({ strict: true });
envelopeAjv.addFormat("date-time", { type: "string", validate: isDateTime });
const checkEnvelope = envelopeAjv.compile(NewEventSchema);
/** What is wrong with an envelope's fields as a writer supplies them (type, version, at, actor, data), if anything. */
export function envelopeProblem(event: unknown): SchemaProblem | undefined {
  return checkEnvelope(event) ? undefined : describeAjvError(checkEnvelope.errors, "event");
}

/** Stream names are ids: no "#" or "~", which would let one stream's keys fall inside another's key range. */
export const STREAM_NAME = new RegExp(Id.pattern!);

/** Seals an envelope into the chain: its hash covers every field but the hash itself. */
export function sealEvent(
  stream: string,
  seq: number,
  prev: string,
  event: NewEvent,
): { stored: StoredEvent; value: string } {
  const body = canonicalJson({
    stream,
    seq,
    type: event.type,
    version: event.version,
    at: event.at,
    actor: event.actor,
    data: event.data,
    prev,
    ...(event.command ? { command: event.command } : {}),
  });
  return sealBody(stream, seq, prev, event, body);
}

/** A checked event: its data copied, and the canonical JSON of that data, written once when it was checked. */
export interface CheckedEvent extends NewEvent {
  dataJson: string;
}

/**
 * sealEvent for a checked event: the canonical envelope is put together around the data's canonical JSON (keys in
 * RFC 8785 order: actor, at, command when there is one, data, prev, seq, stream, type, version), giving the same bytes as canonicalJson.
 */
export function sealChecked(
  stream: string,
  seq: number,
  prev: string,
  event: CheckedEvent,
): { stored: StoredEvent; value: string } {
  const body =
    `{"actor":${JSON.stringify(event.actor)},"at":${JSON.stringify(event.at)},` +
    `${event.command ? `"command":${canonicalJson(event.command)},` : ""}"data":${event.dataJson},"prev":${JSON.stringify(prev)},` +
    `"seq":${seq},"stream":${JSON.stringify(stream)},"type":${JSON.stringify(event.type)},"version":${event.version}}`;
  return sealBody(stream, seq, prev, event, body);
}

/** The stored event and value of an envelope whose canonical body is `body`. */
function sealBody(
  stream: string,
  seq: number,
  prev: string,
  event: NewEvent,
  body: string,
): { stored: StoredEvent; value: string } {
  const hash = sha256Hex(body);
  const stored: StoredEvent = {
    stream,
    seq,
    type: event.type,
    version: event.version,
    at: event.at,
    actor: event.actor,
    data: event.data,
    prev,
    ...(event.command ? { command: event.command } : {}),
    hash,
  };
  return { stored, value: encodeEvent(hash, body) };
}

/**
 * What append checks before it writes, thrown as append throws it: the stream's name (RangeError), and each event
 * (InvalidEventError), copied: the envelope's fields are strings and numbers; the data is written out as canonical JSON
 * once, and copied in the same turn, so what is checked is exactly what will be hashed and stored, whatever the caller
 * does with its objects afterwards. Exported for the command handler that keeps no log (src/engine/memory-engine.ts).
 */
export function checkAppend(stream: string, events: readonly NewEvent[], catalogue: EventCatalogue): CheckedEvent[] {
  if (!STREAM_NAME.test(stream))
    throw new RangeError(`stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`);
  return events.map((event, index) => checkEvent(event, index, catalogue));
}

function checkEvent(original: NewEvent, index: number, catalogue: EventCatalogue): CheckedEvent {
  if (typeof original !== "object" || original === null)
    throw new InvalidEventError(index, "event", "is not plain data");
  if (!checkEnvelope(original)) {
    const problem = describeAjvError(checkEnvelope.errors, "event");
    throw new InvalidEventError(index, problem.field, problem.message);
  }
  let dataJson: string;
  try {
    dataJson = canonicalPlainJson(original.data);
  } catch {
    throw new InvalidEventError(index, "event", "is not plain data");
  }
  // The copy is read back from the canonical JSON: what append returns is what a read of the log gives, key order
  // included, and the caller's objects are not shared with it.
  const data: unknown = JSON.parse(dataJson);
  const event: CheckedEvent = {
    type: original.type,
    version: original.version,
    at: original.at,
    actor: original.actor,
    data,
    dataJson,
    ...(original.command
      ? { command: { signed: original.command.signed, signature: original.command.signature } }
      : {}),
  };
  const problem = catalogue.check(event);
  if (problem) throw new InvalidEventError(index, problem.field, problem.message);
  return event;
}
