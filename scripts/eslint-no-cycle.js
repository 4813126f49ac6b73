// @ts-check
// An ESLint rule that forbids import cycles among our modules, type-only imports included. import-x/no-cycle skips an
// `import type` by design (it is erased at run time), but a cycle through types still ties two layers together.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import ts from "typescript";

/** @type {Map<string, { mtime: number; imports: string[] }>} */
const graph = new Map();

/** The source file a relative specifier names, if any: `./x.js` is `./x.ts` (or .tsx) in the source. */
function sourceOf(/** @type {string} */ from, /** @type {string} */ specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const path = resolve(dirname(from), specifier);
  const stem = path.replace(/\.(m|c)?js$/, "");
  for (const candidate of [path, `${stem}.ts`, `${stem}.tsx`]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The modules a file imports (values, types, re-exports and dynamic imports alike), read once per change. */
function importsOf(/** @type {string} */ file) {
  const mtime = statSync(file).mtimeMs;
  const known = graph.get(file);
  if (known?.mtime === mtime) return known.imports;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const imports = importedFiles.flatMap(({ fileName }) => sourceOf(file, fileName) ?? []);
  graph.set(file, { mtime, imports });
  return imports;
}

/** A path of imports from `start` back to `target`, if one exists. */
function pathBack(/** @type {string} */ start, /** @type {string} */ target) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    for (const next of importsOf(file)) {
      if (next === target) {
        const route = [];
        for (let at = /** @type {string | null} */ (file); at !== null; at = cameFrom.get(at) ?? null)
          route.unshift(at);
        return route;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: "problem",
    docs: { description: "forbid import cycles among the project's modules, type-only imports included" },
    messages: { cycle: "Import cycle: {{route}}" },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const root = context.cwd;
    const name = (/** @type {string} */ path) => path.slice(root.length + 1);
    /**
     * @param {import("estree").Node & { source?: import("estree").Literal | null; argument?: { literal?: { value?: unknown } } }} node
     * An import or export from a module, or a type `import("./x.js").T` (its argument).
     */
    const check = (node) => {
      const specifier = node.source?.value ?? node.argument?.literal?.value;
      if (typeof specifier !== "string") return;
      const target = sourceOf(file, specifier);
      if (target === undefined || target === file) return;
      const route = pathBack(target, file);
      if (route)
        context.report({ node, messageId: "cycle", data: { route: [file, ...route, file].map(name).join(" -> ") } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    };
  },
};
