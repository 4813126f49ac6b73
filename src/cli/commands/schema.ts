import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { publishedSchemas, schemaText, type PublishedSchema } from "../../../events/json-schemas.js";
import { CliError } from "../errors.js";
import type { CliKit } from "./kit.js";

/** The published schemas a `schema` argument names: a type (every version), `<type>.v<n>`, or none (all). */
function named(all: PublishedSchema[], name: string | undefined): PublishedSchema[] {
  if (name === undefined) return all;
  const [, type, version] = /^(.*?)(?:\.v(\d+))?$/.exec(name)!;
  const ofType = all.filter((published) => published.type === type);
  if (ofType.length === 0) {
    const types = [...new Set(all.map((published) => published.type))];
    throw new CliError(`no event type "${type}": the types are ${types.join(", ")}`);
  }
  if (version === undefined) return ofType;
  const chosen = ofType.filter((published) => String(published.version) === version);
  if (chosen.length === 0)
    throw new CliError(
      `${type} has no version ${version}: its versions are ${ofType.map((p) => p.version).join(", ")}`,
    );
  return chosen;
}

/**
 * Registers `schema`: the JSON Schema of each event type's data at each version it was written at, printed (one
 * document, or an object of them by `<type>.v<version>`) or written one file each into a folder (docs/events/).
 */
export function registerSchema(program: Command, { action, print }: CliKit): void {
  program
    .command("schema")
    .description(
      "print the JSON Schema of event data: of a type's every version, of one (TYPE.vN), or of all; --out writes one file each",
    )
    .argument("[type]", "an event type (HitsAllocated), or one version of it (HitsAllocated.v1)")
    .option("--out <dir>", "write <type>.v<version>.schema.json files into this folder instead")
    .action(
      action(async (name: string | undefined, options: { out?: string }) => {
        const chosen = named(publishedSchemas(), name);
        if (options.out !== undefined) {
          await mkdir(options.out, { recursive: true });
          for (const published of chosen) await writeFile(join(options.out, published.file), schemaText(published));
          print(`${chosen.length} schemas written to ${options.out}`);
          return;
        }
        const single = chosen.length === 1 ? chosen[0]! : null;
        print(
          single
            ? schemaText(single).trimEnd()
            : JSON.stringify(Object.fromEntries(chosen.map((p) => [`${p.type}.v${p.version}`, p.schema])), null, 2),
        );
      }),
    );
}
