import type { CliIo } from "../io.js";

/** A progress bar redrawn on stderr while it is a terminal; nothing otherwise. `done()` clears it. */
export function progressBar(io: CliIo): ((label: string, done: number, total: number) => void) & { done: () => void } {
  const width = io.columns?.stderr;
  let shown = false;
  let lastDrawn = -1;
  const draw = (label: string, done: number, total: number) => {
    if (width === undefined) return;
    const permille = Math.floor((1000 * done) / Math.max(total, 1));
    if (permille === lastDrawn) return;
    lastDrawn = permille;
    const text = ` ${label} ${done}/${total}`;
    const cells = Math.max(10, Math.min(50, width - text.length - 3));
    const filled = Math.round((cells * done) / Math.max(total, 1));
    io.stderr(`\r[${"#".repeat(filled)}${" ".repeat(cells - filled)}]${text}`);
    shown = true;
  };
  return Object.assign(draw, {
    done: () => {
      if (shown) io.stderr(`\r${" ".repeat(Math.max(0, (width ?? 0) - 1))}\r`);
      shown = false;
    },
  });
}
