import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The installed package's root folder, found from this file whether it runs from src/ or dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the package root");
    dir = parent;
  }
  return dir;
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/** A file of the package's examples/ folder: the example set-up files (ashfall.setup.json, emberfall.setup.json). */
export function examplePath(file: string): string {
  return join(packageRoot(), "examples", file);
}
