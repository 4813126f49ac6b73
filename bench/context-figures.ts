/**
 * What a long line's first look costs from its context snapshot (replays/context-snapshots.ts), against the fold of the
 * whole line that every first look paid before, in the same run on the same store:
 *   feedResumeMs / feedResumeSpeedup  a feed resumed 5 events back: the context now and the 5 events it is sent
 *   firstStateMs / firstStateSpeedup  a line's first state read (GET /state, the library's state): the host's view now
 *   firstCommandStateMs               the engine's live state of the line made now, as the first command after a start
 *                                     makes it (src/engine/live.ts), up to the head
 */
import { toCurrent } from "../events/index.js";
import { stateAsSeen } from "../replays/as-seen.js";
import { contextNow } from "../replays/context-snapshots.js";
import { SnapshotStore } from "../replays/snapshots.js";
import { LiveCampaign } from "../src/engine/live.js";
import type { EventStore } from "../src/log/index.js";
import { logViewContext } from "../src/views/log.js";
import { fmt, median, type Figure } from "./figure.js";
import { withProgress } from "./progress.js";

const BACK = 5;

const ms = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

export async function contextFigures(store: EventStore, stream: string, runs: number): Promise<Figure[]> {
  const head = (await store.head(stream)).seq;
  await new SnapshotStore(store).clear(stream);
  // The fold of the whole line, as a first look made it: the baseline, and (the first time) what keeps the snapshot.
  const whole = () => store.readAll(stream).then((events) => logViewContext(events.map(toCurrent)));
  const resumed = async () => {
    const context = await contextNow(store, stream);
    return { context, missed: await store.readAll(stream, head - BACK + 1) };
  };
  const firstState = async () => stateAsSeen(await contextNow(store, stream), "host", {});
  const firstCommandState = async () => {
    const live = new LiveCampaign(store, stream);
    try {
      await live.at(head);
    } finally {
      live.close();
    }
  };
  const keepMs = await withProgress(`folding the ${fmt(head)}-event line once, keeping its context`, 1, () =>
    ms(() => contextNow(store, stream)),
  );
  const wholeMs: number[] = [];
  const resumeMs: number[] = [];
  const stateMs: number[] = [];
  const commandMs: number[] = [];
  await withProgress(`first looks at the ${fmt(head)}-event line, ${runs} runs`, runs, async (tick) => {
    for (let run = 0; run < runs; run++) {
      wholeMs.push(await ms(whole));
      resumeMs.push(await ms(resumed));
      stateMs.push(await ms(firstState));
      commandMs.push(await ms(firstCommandState));
      tick(run + 1);
    }
  });
  const [fold, resume, state, command] = [median(wholeMs), median(resumeMs), median(stateMs), median(commandMs)];
  const detail = (what: string, took: number) =>
    `${what} of a ${fmt(head)}-event line from its context snapshot ${fmt(took, 2)} ms vs the whole line folded ${fmt(fold)} ms (median of ${runs}; snapshot kept by a first fold of ${fmt(keepMs)} ms)`;
  return [
    {
      name: "feedResumeMs",
      value: resume,
      unit: " ms",
      goal: "<= 100",
      met: resume <= 100,
      detail: detail(`context and the ${BACK} events after a Last-Event-ID ${BACK} back`, resume),
    },
    {
      name: "feedResumeSpeedup",
      value: fold / resume,
      unit: "x",
      goal: "-",
      met: undefined,
      detail: "the whole line's fold / the resume from the snapshot",
    },
    {
      name: "firstStateMs",
      value: state,
      unit: " ms",
      goal: "<= 300",
      met: state <= 300,
      detail: detail("the host's view now", state),
    },
    {
      name: "firstStateSpeedup",
      value: fold / state,
      unit: "x",
      goal: "-",
      met: undefined,
      detail: "the whole line's fold / the first state from the snapshot",
    },
    {
      name: "firstCommandStateMs",
      value: command,
      unit: " ms",
      goal: "<= 300",
      met: command <= 300,
      detail: detail("the engine's live state, on which the first command after a start is decided,", command),
    },
  ];
}
