import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Catalogue } from "../../events/common.js";
import { checkSetupFile, type SetupFile } from "./setup-file.js";

/** A problem with an input file, named by file and field. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** Text as written, without the byte-order mark some editors put at the start of a UTF-8 file. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InputError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(withoutBom(text)) as unknown;
  } catch (error) {
    throw new InputError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads and schema-checks a set-up file, loading its catalogue from a file when it names one. */
export async function loadSetupFile(path: string): Promise<SetupFile & { catalogue: Catalogue }> {
  const checked = checkSetupFile(await readJsonFile(path));
  if (!checked.ok) throw new InputError(`${path}: ${checked.field} ${checked.message}`);
  const { setup } = checked;
  if (typeof setup.catalogue !== "string") return setup as SetupFile & { catalogue: Catalogue };
  const cataloguePath = resolve(dirname(path), setup.catalogue);
  const catalogue = await readJsonFile(cataloguePath).catch((error: Error) => {
    throw new InputError(`${path}: catalogue: ${error.message}`);
  });
  const withCatalogue = checkSetupFile({ ...setup, catalogue });
  if (!withCatalogue.ok)
    throw new InputError(
      `${cataloguePath}: ${withCatalogue.field.replace(/^catalogue\.?/, "")} ${withCatalogue.message}`,
    );
  return withCatalogue.setup as SetupFile & { catalogue: Catalogue };
}
