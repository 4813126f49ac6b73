import { readFile } from "node:fs/promises";
import { toCurrent } from "../../../events/index.js";
import type { Engine } from "../../engine.js";
import { describeRefusal } from "../../rules/refusal.js";
import { describeEvent } from "../describe.js";
import { CliError } from "../errors.js";
import { pickCampaign } from "../session.js";

async function readInput(file: string): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}

/**
 * Applies commands given as JSON Lines, each decided and written on its own, in order. Stops at the first line that
 * is not valid JSON or is refused: the lines before it stay applied, that line and those after it are not.
 */
export async function applyCommands(
  engine: Engine,
  db: string,
  file: string,
  named: string | undefined,
  print: (line: string) => void,
): Promise<void> {
  const lines = (await readInput(file)).split(/\r?\n/);
  let campaign: string | undefined = named;
  for (const [index, text] of lines.entries()) {
    if (text.trim() === "") continue;
    const where = `${file === "-" ? "stdin" : file}:${index + 1}`;
    let command: unknown;
    try {
      command = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${where}: not valid JSON (${(error as Error).message}); nothing from this line on was applied`);
    }
    const creates = (command as { type?: unknown } | null)?.type === "CreateCampaign";
    const target = creates ? String((command as { campaign?: unknown }).campaign) : (campaign ??= await pickCampaign(engine, db, named));
    const outcome = await engine.execute(target, [command]);
    if (!outcome.ok) throw new CliError(`${where}: refused: ${describeRefusal(outcome.refusal)}; nothing from this line on was applied`);
    for (const event of outcome.events) print(`#${event.seq} ${describeEvent(toCurrent(event))}`);
  }
}
