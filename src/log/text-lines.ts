import { createReadStream } from "node:fs";

/**
 * The lines of a text file, without their line ends ("\n", or "\r\n"), a batch for each large chunk read, split by
 * hand: readline, which gives one line an await, costs about as much a line as checking an export's event does. A
 * last line without a newline is a line.
 */
export async function* textLineBatches(file: string): AsyncGenerator<string[]> {
  const input = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  // The start of a line that runs on past the chunks read so far, kept in pieces: joined once its end is found.
  let pieces: string[] = [];
  const line = (text: string) => {
    const whole = pieces.length === 0 ? text : pieces.join("") + text;
    pieces = [];
    return whole.endsWith("\r") ? whole.slice(0, -1) : whole;
  };
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const batch: string[] = [];
      let start = 0;
      for (let end = chunk.indexOf("\n"); end >= 0; end = chunk.indexOf("\n", start)) {
        batch.push(line(chunk.slice(start, end)));
        start = end + 1;
      }
      if (start < chunk.length) pieces.push(chunk.slice(start));
      if (batch.length > 0) yield batch;
    }
    if (pieces.length > 0) yield [line("")];
  } finally {
    input.destroy();
  }
}
