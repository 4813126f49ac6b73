/** linesStartingIn: the threads of an import each read byte ranges of one file, and between them read every line once. */
import { closeSync, openSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLine, linesStartingIn } from "../../src/log/file-ranges.js";

describe("linesStartingIn", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "epicwar-ranges-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("gives every line of a file once, in order, over ranges that meet, whatever their size (the last may end past the file's), the lines' ends and how far it reads on", async () => {
    const file = join(dir, "lines.txt");
    const line = fc.string({ unit: fc.constantFrom("a", "é", "✓", " ", "{", '"'), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 20 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        async (lines, end, lastEnds, rangeBytes, readOn, pastTheEnd) => {
          const text = lines.join(end) + (lastEnds && lines.length > 0 ? end : "");
          await writeFile(file, text, "utf8");
          const size = Buffer.byteLength(text);
          const fd = openSync(file, "r");
          try {
            const read: string[] = [];
            for (let start = 0; start < size; start += rangeBytes)
              read.push(
                ...linesStartingIn(
                  fd,
                  start,
                  pastTheEnd ? start + rangeBytes : Math.min(size, start + rangeBytes),
                  readOn,
                ),
              );
            // The lines as readline gives them: none after a last line end, and none in an empty file.
            const expected = text === "" ? [] : text.split(/\r?\n/);
            if (text.endsWith("\n")) expected.pop();
            expect(read).toEqual(expected);
            const newline = Buffer.from(text).indexOf(10);
            expect(firstLine(fd)).toEqual(
              text === "" ? undefined : { text: expected[0], next: newline < 0 ? size : newline + 1 },
            );
          } finally {
            closeSync(fd);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
