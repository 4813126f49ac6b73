import { readSync } from "node:fs";
import { blockLines } from "./text-lines.js";

/** How much more is read at a time when a line runs on past the end of its range. */
const READ_ON = 1 << 16;

/**
 * The lines of a file that start in bytes [start, end) (a line starts at 0 or just after a "\n"), each without its
 * line end ("\n" or "\r\n"): the last may run on past `end`, and is read to its end. Ranges that meet give every line
 * of the file once, so that threads can each read ranges of one file by themselves.
 */
export function linesStartingIn(fd: number, start: number, end: number): string[] {
  // One byte before the range tells whether a line starts at its first byte.
  const from = Math.max(0, start - 1);
  let bytes = read(fd, from, end - from);
  let first = 0;
  if (start > 0) {
    first = bytes.indexOf(10) + 1;
    if (first === 0) return [];
  }
  if (from + first >= end || first >= bytes.length) return [];
  // Read on to the end of the last line that starts in the range (or of the file), and no further.
  while (bytes.length > 0 && bytes[bytes.length - 1] !== 10) {
    const more = read(fd, from + bytes.length, READ_ON);
    if (more.length === 0) break;
    const newline = more.indexOf(10);
    bytes = Buffer.concat([bytes, newline < 0 ? more : more.subarray(0, newline + 1)]);
  }
  const last = bytes[bytes.length - 1] === 10 ? bytes.length - 1 : bytes.length;
  return blockLines(bytes.toString("utf8", first, last));
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
