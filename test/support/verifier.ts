import { execFile, type ExecFileException } from "node:child_process";
import { fileURLToPath } from "node:url";

const VERIFIER = fileURLToPath(new URL("../../tools/verify_log.py", import.meta.url));

/** Runs tools/verify_log.py with `args`: its exit code and what it printed. */
export function runVerifier(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) =>
    execFile("python3", [VERIFIER, ...args], { encoding: "utf8", timeout: 60_000 }, (error, stdout) => {
      const code = (error as ExecFileException | null)?.code ?? 0;
      if (typeof code === "number") resolve({ code, stdout });
      else reject(error);
    }),
  );
}
