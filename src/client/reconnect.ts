/**
 * How a client rides out a server it cannot reach (docs/remote-play.md, "When the server goes away"): each failed try
 * is followed by a wait that doubles from the first up to the longest, with jitter, and the client gives up once the
 * server has been out of reach longer than its offline timeout.
 */

export interface ReconnectOptions {
  /** How long the server may stay out of reach (no answer, or only 5xx) before the client gives up, in ms. */
  offlineTimeoutMs: number;
  /** The wait after the first failed try, in ms (default 250); each next one doubles it. */
  firstDelayMs?: number;
  /** The longest wait between tries, in ms (default 10,000). */
  mostDelayMs?: number;
  /** The jitter's source: a number in [0, 1) (default Math.random). Each wait is between half and all of its step. */
  random?: () => number;
  /** The clock the time offline is measured by, in ms (default Date.now). */
  now?: () => number;
  /** Told each time the server is found out of reach: why, and how long until the next try. */
  onLost?: (reason: string, delayMs: number) => void;
  /** Told when the server answers again after it was lost: for how long it was. */
  onBack?: (offlineMs: number) => void;
}

export const RECONNECT_DEFAULTS = { firstDelayMs: 250, mostDelayMs: 10_000 } as const;

/** One connection's time out of reach of its server: shared by its requests and its feed. */
export class Outage {
  private since: number | undefined;
  private step: number;

  constructor(readonly options: ReconnectOptions) {
    this.step = this.first;
  }

  private get first(): number {
    return this.options.firstDelayMs ?? RECONNECT_DEFAULTS.firstDelayMs;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** How long the server has been out of reach, in ms (0 while it answers). */
  offlineMs(): number {
    return this.since === undefined ? 0 : this.now() - this.since;
  }

  /**
   * A try failed (`reason`; a 503's Retry-After asks for at least `retryAfterMs`): the wait before the next try, told
   * through onLost; or undefined once the server has been out of reach for the offline timeout.
   */
  failed(reason: string, retryAfterMs = 0): number | undefined {
    const now = this.now();
    this.since ??= now;
    const left = this.since + this.options.offlineTimeoutMs - now;
    if (left <= 0) return undefined;
    const step = this.step;
    this.step = Math.min(step * 2, this.options.mostDelayMs ?? RECONNECT_DEFAULTS.mostDelayMs);
    const jittered = step / 2 + (this.options.random ?? Math.random)() * (step / 2);
    const wait = Math.round(Math.min(Math.max(jittered, retryAfterMs), left));
    this.options.onLost?.(reason, wait);
    return wait;
  }

  /** A try was answered: if the server had been lost, onBack is told, and the next outage starts from the first wait. */
  answered(): void {
    if (this.since === undefined) return;
    const offline = this.now() - this.since;
    this.since = undefined;
    this.step = this.first;
    this.options.onBack?.(offline);
  }
}

/** A 503's Retry-After (seconds, or an HTTP date), in ms; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number {
  if (!header) return 0;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

/** Waits `ms`, or less if the signal is aborted. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
