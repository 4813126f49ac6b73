/**
 * A progress bar for the long steps of the benchmark, on stderr so that stdout stays the table (and the JSON line).
 * On a terminal it redraws one line; elsewhere (CI logs) it prints a line when a step starts and when it ends.
 */
export class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private started = 0;
  private lastDraw = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {
    this.started = performance.now();
    if (!this.tty) process.stderr.write(`${label}...\n`);
    else this.draw(0);
  }

  update(done: number): void {
    if (!this.tty) return;
    const now = performance.now();
    if (now - this.lastDraw < 100 && done < this.total) return;
    this.lastDraw = now;
    this.draw(done);
  }

  done(note = ""): void {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    if (this.tty) process.stderr.write(`\r\x1b[2K`);
    process.stderr.write(`${this.label}: done in ${seconds} s${note ? ` (${note})` : ""}\n`);
  }

  private draw(done: number): void {
    const width = 30;
    const fraction = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const filled = Math.round(fraction * width);
    const elapsed = (performance.now() - this.started) / 1000;
    const eta = fraction > 0.02 ? ` eta ${Math.max(0, elapsed / fraction - elapsed).toFixed(0)} s` : "";
    process.stderr.write(
      `\r\x1b[2K${this.label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%${eta}`,
    );
  }
}

/** Runs a step with a bar counting `total` units; the step reports progress through `tick`. */
export async function withProgress<T>(
  label: string,
  total: number,
  step: (tick: (done: number) => void) => Promise<T>,
  note?: (result: T) => string,
): Promise<T> {
  const bar = new Progress(label, total);
  const result = await step((done) => bar.update(done));
  bar.done(note?.(result));
  return result;
}
