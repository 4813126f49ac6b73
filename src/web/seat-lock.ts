import { signal } from "@preact/signals";

/**
 * A seat opened in several tabs of one browser shares its secrets (IndexedDB), so its tabs must not each draw a seed
 * or keep an order from a state another tab has moved on from. With the Web Locks API (a secure context: https, or
 * http on loopback), the tabs of a seat's line take turns: each command runs alone (prepared from the state read
 * under the lock, its secret kept, sent, answered), and one tab at a time takes the chores, the others waiting to
 * take over when it closes. Where the API is missing every tab takes the chores; a kept seed is still never replaced.
 */
export class SeatLock {
  /** Whether this tab takes the seat's chores. */
  readonly chores = signal(false);
  private readonly locks: LockManager | undefined = globalThis.navigator?.locks;

  constructor(private readonly name: string) {
    if (!this.locks) this.chores.value = true;
  }

  /** Runs work while no other tab of the seat's line runs a command. */
  alone<T>(work: () => Promise<T>): Promise<T> {
    // The lock's promise settles as work's does (LockGrantedCallback's type does not say so).
    return this.locks ? (this.locks.request(`${this.name} commands`, work) as unknown as Promise<T>) : work();
  }

  /**
   * Waits for the chores (at once if no other tab holds them) and holds them until the returned release is called;
   * `onHeld` is called when this tab gets them.
   */
  claimChores(onHeld: () => void): () => void {
    if (!this.locks) return () => {};
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const abort = new AbortController();
    void this.locks
      .request(`${this.name} chores`, { signal: abort.signal }, async () => {
        this.chores.value = true;
        onHeld();
        await released;
        this.chores.value = false;
      })
      .catch(() => {});
    return () => {
      abort.abort();
      release();
    };
  }
}
