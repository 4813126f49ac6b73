import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Catalogue } from "../../events/common.js";
import { checkSetupFile, type SetupFile } from "../../src/setup/setup-file.js";

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), "..", "golden");

/** A golden fixture set-up file with its catalogue loaded. */
export function goldenSetup(name: string): SetupFile & { catalogue: Catalogue } {
  const path = join(goldenDir, "fixtures", name);
  const raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  if (typeof raw["catalogue"] === "string")
    raw["catalogue"] = JSON.parse(readFileSync(resolve(dirname(path), raw["catalogue"]), "utf8"));
  const checked = checkSetupFile(raw);
  if (!checked.ok) throw new Error(`${name}: ${checked.field} ${checked.message}`);
  return checked.setup as SetupFile & { catalogue: Catalogue };
}
