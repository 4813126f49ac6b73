/** textLineBatches: an export file's lines as import reads them, whatever their ends and however the chunks fall. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockLines, textBlocks, textLineBatches } from "../../src/log/text-lines.js";

describe("textLineBatches and textBlocks", () => {
  let dir: string;
  let files = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "epicwar-lines-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const linesOf = async (text: string) => {
    const file = join(dir, `lines-${++files}.txt`);
    await writeFile(file, text, "utf8");
    const lines: string[] = [];
    for await (const batch of textLineBatches(file)) lines.push(...batch);
    return lines;
  };

  it("gives each line without its end, \\n or \\r\\n, and a last line with no newline", async () => {
    expect(await linesOf("a\nbé\r\n\nlast")).toEqual(["a", "bé", "", "last"]);
    expect(await linesOf("a\n")).toEqual(["a"]);
    expect(await linesOf("")).toEqual([]);
  });

  it("gives blocks of whole lines, however small the chunks: the same lines, a \\r\\n cut between two chunks too", async () => {
    const text = "one\r\ntwo\n\nthree é\r\nfour";
    const file = join(dir, `lines-${++files}.txt`);
    await writeFile(file, text, "utf8");
    for (const chunkBytes of [1, 2, 3, 5, 8, 64]) {
      const lines: string[] = [];
      for await (const block of textBlocks(file, chunkBytes)) lines.push(...blockLines(block));
      expect(lines, `chunks of ${chunkBytes} bytes`).toEqual(["one", "two", "", "three é", "four"]);
    }
  });

  it("joins a line that runs across the chunks it is read in, multi-byte characters and all", async () => {
    const long = "é✓".repeat(700_000);
    expect(await linesOf(`first\n${long}\r\nnext\n${long}`)).toEqual(["first", long, "next", long]);
  });
});
