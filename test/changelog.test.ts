/** CHANGELOG.md keeps users told of the event catalogue: every event type at its current version is named in it. */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { EVENT_DEFINITIONS } from "../events/index.js";
import { packageRoot, packageVersion } from "../src/setup/package-files.js";

describe("CHANGELOG.md", () => {
  it("names every event type at its current version, and the package's version", async () => {
    const changelog = await readFile(`${packageRoot()}/CHANGELOG.md`, "utf8");
    const flat = changelog.replace(/\s+/g, " ");
    const missing = EVENT_DEFINITIONS.map((d) => `${d.type} v${d.version}`).filter((named) => !flat.includes(named));
    expect(missing, "add each new event version to CHANGELOG.md").toEqual([]);
    expect(changelog).toMatch(new RegExp(`^## ${packageVersion().replace(/\./g, "\\.")} `, "m"));
  });
});
