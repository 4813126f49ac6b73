import { createReadStream } from "node:fs";

/**
 * A text file as blocks of whole lines, one for each large chunk read (1 MiB unless told): each block is its lines joined by "\n" (line
 * ends "\n" or "\r\n"; a block holds no line's end), so that `block.split("\n")` gives them with any "\r" left on. A
 * last line without a newline is a line. A block is one string to hand to another thread at the cost of one copy.
 */
export async function* textBlocks(file: string, chunkBytes = 1 << 20): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: "utf8", highWaterMark: chunkBytes });
  // The start of a line that runs on past the chunks read so far, kept in pieces: joined once its end is found.
  let pieces: string[] = [];
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const end = chunk.lastIndexOf("\n");
      if (end < 0) {
        pieces.push(chunk);
        continue;
      }
      const block = pieces.length === 0 ? chunk.slice(0, end) : pieces.join("") + chunk.slice(0, end);
      pieces = end + 1 < chunk.length ? [chunk.slice(end + 1)] : [];
      yield block;
    }
    if (pieces.length > 0) yield pieces.join("");
  } finally {
    input.destroy();
  }
}

/** A block's lines (textBlocks), each without its "\r" if it had one. */
export function blockLines(block: string): string[] {
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith("\r")) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}

/**
 * The lines of a text file, without their line ends, a batch for each large chunk read: readline, which gives one line
 * an await, costs about as much a line as checking an export's event does.
 */
export async function* textLineBatches(file: string): AsyncGenerator<string[]> {
  for await (const block of textBlocks(file)) yield blockLines(block);
}
