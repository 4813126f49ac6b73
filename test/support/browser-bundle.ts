import { build } from "esbuild";

/**
 * Bundles modules of the tree for the browser as a web page would (esbuild, ESM, platform browser), in memory:
 * what a test of a module shared by Node and the browser checks for node: imports and packages.
 */
export async function browserBundle(...modules: string[]): Promise<{ inputs: string[]; text: string }> {
  const result = await build({
    stdin: {
      contents: modules.map((module) => `export * from "${module}";`).join(" "),
      resolveDir: process.cwd(),
      loader: "ts",
    },
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { inputs: Object.keys(result.metafile.inputs), text: result.outputFiles[0]!.text };
}
