/**
 * Cross-instance races: the organiser's same command (O2's SetActionDeadline, a new deadline each race) at the same
 * expectedSeq sent to two instances at once, round after round. expectedSeq holds across instances when exactly one
 * of each pair is answered 200 and the other 409 stale. A race in which an instance could not answer (killed, or the
 * database away) decides nothing and is counted apart.
 */
import { eventIdentity, type CommandAnswer } from "../chaos/recording-proxy.js";

/** The pause after each race. */
const PAUSE_MS = 50;

export interface Race {
  campaign: string;
  /** The deadline the race's command set: found in the log once if one instance won, never if none did. */
  deadline: string;
  /** Each instance's answer (0: no answer at all). */
  statuses: [number, number];
  /** What an answer other than 200 or 409 said. */
  said: string[];
}

/** A race whose two answers are each a win or a stale refusal. */
export const decided = (race: Race): boolean => race.statuses.every((status) => status === 200 || status === 409);

/**
 * Races on `campaign`, over the instances at `urls` by turns (0 against 1, 1 against 2, ...), until stopped; the host's
 * token `hostToken`; each race is pushed onto `races`, each answer to a command onto `answers`.
 * Resolves to the function that stops it.
 */
export function raceOn(
  campaign: string,
  urls: ReadonlyArray<() => string>,
  hostToken: string,
  answers: CommandAnswer[],
  races: Race[],
  firstDeadline: number,
): () => Promise<void> {
  let stopped = false;
  const racing = (async () => {
    let seq = 0;
    // Bounded by the soak, which stops it.
    for (let round = 0; !stopped && round < 1_000_000; round++) {
      const pair = [round % urls.length, (round + 1) % urls.length] as const;
      const headers = { authorization: `Bearer ${hostToken}`, "content-type": "application/json" };
      try {
        const read = await fetch(`${urls[pair[0]]!()}/campaigns/${campaign}/log?after=${seq}`, {
          headers,
        });
        if (read.status !== 200) throw new Error(`log: ${read.status}`);
        seq = ((await read.json()) as { seq: number }).seq;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const deadline = new Date(firstDeadline + round * 60_000).toISOString();
      const body = JSON.stringify({
        expectedSeq: seq,
        commands: [{ actor: "host", type: "SetActionDeadline", at: deadline }],
      });
      const said: string[] = [];
      const statuses = (await Promise.all(
        pair.map(async (instance) => {
          try {
            const answer = await fetch(`${urls[instance]!()}/campaigns/${campaign}/commands`, {
              method: "POST",
              headers,
              body,
            });
            const text = await answer.text();
            if (answer.status === 200) {
              const written = JSON.parse(text) as Required<Pick<CommandAnswer, "seq" | "events">>;
              answers.push({ campaign, status: 200, seq: written.seq, events: written.events.map(eventIdentity) });
            } else answers.push({ campaign, status: answer.status, events: [] });
            if (answer.status !== 200 && answer.status !== 409) said.push(`${answer.status} ${text.slice(0, 300)}`);
            return answer.status;
          } catch (error) {
            said.push(String((error as Error).cause ?? error));
            return 0;
          }
        }),
      )) as [number, number];
      races.push({ campaign, deadline, statuses, said });
      // A race now and then, not as fast as the loop goes: the instances have campaigns to serve.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  })();
  return async () => {
    stopped = true;
    await racing;
  };
}
