/**
 * A client of a soak's own that writes to a campaign as fast as the server lets it and never gives up: the
 * organiser pausing and resuming the campaign (O1), one command a request. It needs no secret and no decision, so it
 * goes on writing whatever happens to the other clients: every write failure and restart meets commands in flight, and
 * every command it is answered 2xx for is one more the final log must hold.
 */
export interface SteadyWriter {
  /** Commands answered 2xx. */
  acknowledged: () => number;
  stop: () => Promise<void>;
}

export function steadyWriter(url: () => string, campaign: string, token: string): SteadyWriter {
  const stopping = new AbortController();
  let acknowledged = 0;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const write = async () => {
    let seq: number | undefined;
    let paused = false;
    // Bounded by the soak, which stops it; every pass waits a little.
    while (!stopping.signal.aborted) {
      try {
        if (seq === undefined) {
          const answer = await fetch(`${url()}/campaigns/${campaign}/state`, { headers, signal: stopping.signal });
          if (answer.status !== 200) throw new Error(`state: ${answer.status}`);
          const { state } = (await answer.json()) as { state: { seq: number; paused?: unknown } };
          seq = state.seq;
          paused = state.paused !== undefined;
        }
        const command = paused
          ? { actor: "host", type: "ResumeCampaign" }
          : { actor: "host", type: "PauseCampaign", reason: "a steady writer's pause" };
        const answer = await fetch(`${url()}/campaigns/${campaign}/commands`, {
          method: "POST",
          headers,
          body: JSON.stringify({ expectedSeq: seq, commands: [command] }),
          signal: stopping.signal,
        });
        if (answer.status === 200) {
          seq = ((await answer.json()) as { seq: number }).seq;
          paused = !paused;
          acknowledged++;
        } else {
          await answer.body?.cancel();
          seq = undefined; // 409, 5xx, anything else: read the campaign again
        }
      } catch {
        seq = undefined; // the server down: read again once it is back
      }
      await new Promise((resolve) => setTimeout(resolve, seq === undefined ? 200 : 50));
    }
  };
  const writing = write();
  return {
    acknowledged: () => acknowledged,
    stop: async () => {
      stopping.abort();
      await writing;
    },
  };
}
