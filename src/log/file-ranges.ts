import { isAscii } from "node:buffer";
import { readSync } from "node:fs";
import { blockLines } from "./text-lines.js";

/** How much is read past a range's end for the end of its last line, and then more at a time if that is not enough. */
const READ_ON_BYTES = 1 << 16;

/**
 * The lines of a file that start in bytes [start, end) (a line starts at 0 or just after a "\n"), each without its
 * line end ("\n" or "\r\n"): the last may run on past `end`, and is read to its end. Ranges that meet give every line
 * of the file once, so that threads can each read ranges of one file by themselves. `readOn`: READ_ON_BYTES.
 */
export function linesStartingIn(fd: number, start: number, end: number, readOn = READ_ON_BYTES): string[] {
  // One byte before the range tells whether a line starts at its first byte.
  const from = Math.max(0, start - 1);
  let bytes = read(fd, from, end - from + readOn);
  let first = 0;
  if (start > 0) {
    first = bytes.indexOf(10) + 1;
    if (first === 0) return [];
  }
  if (from + first >= end || first >= bytes.length) return [];
  // The end of the last line that starts in the range (or of the file, which the range may end past), and no further.
  let newline = bytes.indexOf(10, Math.min(end - from, bytes.length) - 1);
  if (newline < 0) {
    // Joined once: a line many times `readOn` long costs one copy, not one for each read.
    const pieces = [bytes];
    let length = bytes.length;
    for (let more = read(fd, from + length, readOn); more.length > 0; more = read(fd, from + length, readOn)) {
      pieces.push(more);
      const at = more.indexOf(10);
      if (at >= 0) {
        newline = length + at;
        break;
      }
      length += more.length;
    }
    bytes = Buffer.concat(pieces);
  }
  const last = newline < 0 ? bytes.length : newline;
  const text = bytes.subarray(first, last);
  // An export is almost always ASCII (JSON escapes nothing else), which decodes as Latin-1 five times faster.
  return blockLines(isAscii(text) ? text.toString("latin1") : text.toString("utf8"));
}

/** The file's first line (without its end), and the byte its second starts at; undefined for an empty file. */
export function firstLine(fd: number): { text: string; next: number } | undefined {
  const [text] = linesStartingIn(fd, 0, 1);
  if (text === undefined) return undefined;
  const raw = read(fd, 0, Buffer.byteLength(text) + 2);
  return { text, next: raw.indexOf(10) < 0 ? raw.length : raw.indexOf(10) + 1 };
}

function read(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const got = readSync(fd, buffer, filled, length - filled, position + filled);
    if (got === 0) break;
    filled += got;
  }
  return buffer.subarray(0, filled);
}
