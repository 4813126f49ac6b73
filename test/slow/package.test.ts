/**
 * The package as its users get it: `npm pack`, installed from the tarball into an empty project, where the embedding
 * example (examples/embed.ts) is type-checked against the installed types and run, importing only "epic-war-engine".
 * Anything the example needs that the public entry does not give fails here, and no internal path can be imported.
 * Also: the API reference builds from the TSDoc comments with no warning (`npm run docs`).
 */
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

let dir: string;
let project: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "epicwar-package-"));
  project = join(dir, "project");
  // dist/ is built by the slow tier's pretest: the tarball is what `npm publish` would upload.
  const packed = await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], { cwd: ROOT });
  const tarball = join(dir, packed.stdout.trim().split("\n").at(-1)!);
  await run("mkdir", ["-p", project]);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "embed-check", private: true, type: "module", allowScripts: { "classic-level": true } }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], { cwd: project });
}, 300_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the packed package", () => {
  it("runs the embedding example, type-checked against its published types, importing only its public entry", async () => {
    await copyFile(join(ROOT, "examples", "embed.ts"), join(project, "embed.ts"));
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules", "@types")],
        },
        files: ["embed.ts"],
      }),
    );
    await run(bin("tsc"), ["-p", "tsconfig.json"], { cwd: project });
    await run(bin("esbuild"), ["embed.ts", "--format=esm", "--platform=node", "--outfile=embed.mjs"], { cwd: project });
    const { stdout } = await run(process.execPath, ["embed.mjs"], { cwd: project });
    expect(stdout).toMatch(
      /^concord: \d+ of 300 CVPs \(battles \d+, objectives \d+\)\nhorde: \d+ of 300 CVPs \(battles \d+, objectives \d+\)\nturn 2; the audit: clean\n$/,
    );
  });

  it("exposes the entry and the client, and no internal path", async () => {
    const probe = `
      const api = await import("epic-war-engine");
      const client = await import("epic-war-engine/client");
      console.log(typeof api.CampaignFolder, typeof client.Table);
      await import("epic-war-engine/dist/src/engine/engine.js").catch((e) => console.log(e.code));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: project });
    expect(stdout).toBe("function function\nERR_PACKAGE_PATH_NOT_EXPORTED\n");
    const version = await run(join(project, "node_modules", ".bin", "epicwar"), ["--version"], { cwd: project });
    const { version: packaged } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(version.stdout.trim()).toBe(packaged);
  });

  it("npm run docs builds the API reference with no warning", async () => {
    const out = join(dir, "api");
    await run("npm", ["run", "docs", "--", "--out", out], { cwd: ROOT });
    const index = await readFile(join(out, "index.html"), "utf8");
    expect(index).toContain("Epic War Engine");
    const modules = await readFile(join(out, "modules.html"), "utf8");
    expect(modules).toMatch(/index/);
    expect(modules).toMatch(/client/);
  });
});
