import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ESLint } from "eslint";
import { afterEach, describe, expect, it } from "vitest";

const config = resolve("eslint.config.js");
let folder: string | undefined;

afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

/** The cycle messages ESLint, with the project's own configuration, reports on these modules. */
async function cycleMessages(files: Record<string, string>): Promise<string[]> {
  folder = await mkdtemp(join(tmpdir(), "epicwar-no-cycle-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  const eslint = new ESLint({ cwd: folder, overrideConfigFile: config });
  const results = await eslint.lintFiles(Object.keys(files));
  return results.flatMap((result) =>
    result.messages.filter((message) => message.ruleId === "local/no-cycle").map((message) => message.message),
  );
}

describe("ESLint's no-cycle rule", () => {
  it("reports a cycle one side of which imports types only", async () => {
    const messages = await cycleMessages({
      "state.ts": 'import type { Kit } from "./kit.js";\nexport interface State { kit: Kit }\n',
      "kit.ts": 'import type { State } from "./state.js";\nexport interface Kit { of?: State }\n',
    });
    expect(messages.sort()).toEqual([
      "Import cycle: kit.ts -> state.ts -> kit.ts",
      "Import cycle: state.ts -> kit.ts -> state.ts",
    ]);
  });

  it("reports a longer cycle through a re-export", async () => {
    const messages = await cycleMessages({
      "a.ts": 'import { b } from "./b.js";\nexport const a = b + 1;\n',
      "b.ts": 'export { c as b } from "./c.js";\n',
      "c.ts": 'import type { A } from "./d.js";\nexport const c: A = 1;\n',
      "d.ts": 'import type { a } from "./a.js";\nexport type A = typeof a;\n',
    });
    expect(messages).toContain("Import cycle: a.ts -> b.ts -> c.ts -> d.ts -> a.ts");
  });

  it('reports a cycle of type queries, import("./x.js").T', async () => {
    const messages = await cycleMessages({
      "a.ts": 'export type A = { b?: import("./b.js").B };\n',
      "b.ts": 'export type B = { a?: import("./a.js").A };\n',
    });
    expect(messages.sort()).toEqual(["Import cycle: a.ts -> b.ts -> a.ts", "Import cycle: b.ts -> a.ts -> b.ts"]);
  });

  it("takes imports that point one way", async () => {
    const messages = await cycleMessages({
      "formulas.ts": "export interface AwardTable { win: number }\n",
      "derived.ts": 'import type { AwardTable } from "./formulas.js";\nexport const table: AwardTable = { win: 1 };\n',
    });
    expect(messages).toEqual([]);
  });
});
