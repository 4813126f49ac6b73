import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/**
 * Golden SVG files in test/map/: a test's map must equal its file byte for byte. `UPDATE_MAPS=1 npm test` (or vitest
 * run test/map) writes them anew instead; review the diff before committing it.
 */
export const UPDATING = process.env["UPDATE_MAPS"] === "1";

export const goldenPath = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

export async function expectGolden(path: string, svg: string): Promise<void> {
  if (UPDATING) {
    await writeFile(path, svg, "utf8");
    return;
  }
  const golden = await readFile(path, "utf8").catch(() => {
    throw new Error(`${path} is missing: run UPDATE_MAPS=1 npx vitest run test/map to write it, then review it`);
  });
  expect(svg, `${path} differs from the map drawn now (UPDATE_MAPS=1 rewrites it)`).toBe(golden);
}
