/**
 * What a chaos soak checks its observations against: every event any client was shown (a command's 2xx answer, a
 * feed, a read of the log) under a seq, across every restart of the server, and the log the folder holds at the end.
 * Each finding names the campaign, the seq and both sides of the difference, so a failure says what broke.
 */
import type { Delivery } from "./feed-follower.js";
import type { CommandAnswer, EventIdentity } from "./recording-proxy.js";

/** Which event a client was shown under a seq, first and since: a seq whose event changed was reused. */
export class SeqLedger {
  private readonly seen = new Map<string, { event: EventIdentity; source: string }>();
  readonly reused: string[] = [];
  observations = 0;

  observe(event: EventIdentity, source: string): void {
    this.observations++;
    const key = `${event.stream}#${event.seq}`;
    const first = this.seen.get(key);
    if (!first) {
      this.seen.set(key, { event, source });
      if (event.hash === undefined) return;
    } else if (differ(first.event, event)) {
      this.reused.push(`${key} was ${describe(first.event)} (${first.source}), then ${describe(event)} (${source})`);
      return;
    }
    if (first && first.event.hash === undefined && event.hash !== undefined) this.seen.set(key, { event, source });
  }
}

/** Two sightings of one seq differ: another type, actor or time, or (when both carry one) another chain hash. */
function differ(a: EventIdentity, b: EventIdentity): boolean {
  if (a.type !== b.type || a.actor !== b.actor || a.at !== b.at) return true;
  return a.hash !== undefined && b.hash !== undefined && a.hash !== b.hash;
}

export function describe(event: EventIdentity): string {
  return `${event.type} by ${event.actor} at ${event.at}${event.hash ? ` hash ${event.hash.slice(0, 12)}` : ""}`;
}

/** Each acknowledged event (a 2xx answer's) that the final log does not hold as it was acknowledged. */
export function acknowledgedMissing(answers: CommandAnswer[], finalLogs: Map<string, EventIdentity[]>): string[] {
  const missing: string[] = [];
  for (const answer of answers.filter((a) => a.status >= 200 && a.status <= 299))
    for (const event of answer.events) {
      const logged = finalLogs.get(event.stream)?.[event.seq - 1];
      if (!logged || differ(logged, { ...event, hash: undefined }))
        missing.push(
          `${event.stream}#${event.seq} ${describe(event)} was acknowledged (${answer.status}); the final log has ${
            logged ? describe(logged) : "no such seq"
          }`,
        );
    }
  return missing;
}

/**
 * What a feed follower got wrong against the final log: an event it never got, one it got twice, one out of order,
 * one not the log's. Events it got on a connection after the server was killed are still events: each counts.
 */
export function feedFaults(name: string, deliveries: Delivery[], finalLog: EventIdentity[]): string[] {
  const faults: string[] = [];
  const counts = new Map<number, number>();
  let previous = 0;
  for (const { event, connection } of deliveries) {
    counts.set(event.seq, (counts.get(event.seq) ?? 0) + 1);
    if (event.seq <= previous) faults.push(`${name}: #${event.seq} came after #${previous} (connection ${connection})`);
    previous = Math.max(previous, event.seq);
    const logged = finalLog[event.seq - 1];
    if (!logged || differ(logged, { ...event, hash: logged.hash === undefined ? undefined : event.hash }))
      faults.push(
        `${name}: got #${event.seq} ${describe(event)}; the final log has ${logged ? describe(logged) : "no such seq"}`,
      );
  }
  for (const logged of finalLog) {
    const count = counts.get(logged.seq) ?? 0;
    if (count !== 1) faults.push(`${name}: got #${logged.seq} ${describe(logged)} ${count} times`);
  }
  return faults;
}
