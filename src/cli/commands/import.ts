import type { Command } from "commander";
import { catalogue } from "../../../events/index.js";
import { BranchError } from "../../log/index.js";
import { ImportError, type CheckedExport } from "../../log/import-file.js";
import { checkExportFile } from "../../log/import-threads.js";
import { CliError, EXIT } from "../errors.js";
import { withEngine } from "../session.js";
import type { CliKit } from "./kit.js";

/** Reads and checks a whole export file: what it holds, or a CliError naming the file's first bad line. */
export async function readExportFile(file: string): Promise<CheckedExport> {
  try {
    return await checkExportFile(file, catalogue);
  } catch (error) {
    if (error instanceof ImportError)
      throw new CliError(
        `${file} ${error.message}; nothing was written${error.broken ? " (the file's chain does not hold: it was changed or cut short)" : ""}`,
        error.broken ? EXIT.broken : EXIT.refused,
      );
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "EACCES")
      throw new CliError(`cannot read ${file} (${code}): give the path of a file written by epicwar export`);
    throw error;
  }
}

/** Registers `import`: an export file checked in full, then written as it was stored, into a folder. */
export function registerImport(program: Command, { action, print, dbOption }: CliKit): void {
  program
    .command("import")
    .description(
      "read a file written by epicwar export into a folder: its whole chain is checked first (hashes, links, seqs, event schemas, heads), and nothing is written unless all of it holds or if the campaign or a branch of it is already there",
    )
    .argument("<file>", "the export file (JSON Lines)")
    .addOption(dbOption())
    .action(
      action(async (file: string, options: { db: string; store?: string }) => {
        const checked = await readExportFile(file);
        const { header } = checked;
        const into = await withEngine(options, {}, async (engine) => {
          await engine.store.importStreams(checked.streams).catch((error: unknown) => {
            if (error instanceof BranchError)
              throw new CliError(
                `${error.message} (${engine.store.location}): an import never writes over a campaign or a branch; nothing was written (import into another --db)`,
              );
            throw error;
          });
          return engine.store.location;
        });
        const branches = checked.streams.filter((s) => s.branch).map((s) => s.branch!.name);
        print(
          `imported ${header.campaign} into ${into}: ${checked.events} events, ${header.stream} at #${header.head.seq} ${header.head.hash.slice(0, 16)}${branches.length ? `, with its branches ${branches.join(", ")}` : ""}; its chain was checked in full`,
        );
      }),
    );
}
