/**
 * Work tried again until it succeeds: each key's delay doubles from `first` to `most`, and starts again from `first`
 * once the work has succeeded (reset). One timer per key at a time; close() clears them all.
 */
export class Retries {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly delays = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly first: number,
    private readonly most: number,
  ) {}

  /** Runs `work` once the key's next delay has passed, unless a try of it is already waiting. */
  schedule(key: string, work: () => void): void {
    if (this.closed || this.timers.has(key)) return;
    const delay = this.delays.get(key) ?? this.first;
    this.delays.set(key, Math.min(delay * 2, this.most));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!this.closed) work();
      }, delay),
    );
  }

  /** The key's work succeeded: a later failure is tried again after the first delay. */
  reset(key: string): void {
    this.delays.delete(key);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
