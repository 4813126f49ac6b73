/**
 * The benchmark suite (`npm run bench`, after `npm run build`): separate from the tests, never part of `npm test`.
 *
 * Every figure is a ratio against a baseline measured in the same run, on the same data and machine, so that it says
 * something about the engine rather than about the computer:
 *   replayRatio         full replay events/s of a generated log  /  raw scan (LevelDB nextv, or PostgreSQL pages by
 *                       primary key; + JSON.parse) events/s
 *   stateAtTurnMs       median time for the state at a turn and phase of a 1,000-turn campaign, from snapshots
 *   stateAtTurnSpeedup  median of (full replay to that point / snapshot path), per sampled point
 *   (the same two for a campaign whose turns keep their battles: its state grows with every battle fought)
 *   branchCreateRatio   creating a branch on the big log / on a 1,000-event log
 *   appendRatio         engine append events/s / raw batch puts (LevelDB) or INSERTs (PostgreSQL) of the same values,
 *                       same sync setting
 *   verifyRatio         chain verify events/s / raw SHA-256 over the same bytes
 *   verifySignaturesRatio  verify of the chain and every signature (as `epicwar verify`) of the 1,000-turn campaign,
 *                       events per CPU-second / SHA-256 of each body plus one Ed25519 verification per event alone
 *   importRatio         `epicwar import` of the big log's export, events/s / raw LevelDB puts of the same values
 *                       (LevelDB only)
 *   httpCommandRatio    commands/s through `epicwar serve` / commands/s to an in-process Engine (bench/server-figures.ts)
 *   feedFanoutRatio     events/s each of 100 feed viewers receives / events/s a single viewer receives, same play
 *   mapRenderMs         median time renderMap takes for a 40 x 30 map with 80 armies (no baseline: bench/map.ts)
 *   forecastTurnsPerSecond  Ashfall turns a forecast simulates a second on worker threads (bench/forecast.ts)
 *   forecastTurnRatio   a simulated turn's time in one thread / folding the events of one real turn of Ashfall
 *   feedResumeMs, firstStateMs (and their speedups)  a feed resumed 5 events back and the first state read of the
 *                       big log, from its context snapshot / the fold of the whole line (bench/context-figures.ts)
 *
 * Options: --quick (smaller sizes, under a minute: for CI), --json (one JSON object as the last line of stdout),
 * --keep (leave the generated database in place and print where), --server (the server's two figures only),
 * --store postgres://... (the store's figures on that PostgreSQL database, which must be empty, against PostgreSQL's
 * own raw reads and writes; the map, forecast and server figures, which do not touch the store, are left out),
 * --forecast (the forecast's two figures only), --first-looks (the big log's feed resume and first state only),
 * --branches (branchCreateRatio only).
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { NewEvent } from "../events/index.js";
import { createBranch } from "../replays/branches.js";
import { exportPlan } from "../replays/export-plan.js";
import { PHASES, type TurnPhase } from "../replays/positions.js";
import { Replays } from "../replays/replayer.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { seededRandom } from "../src/demo/rng.js";
import { Engine } from "../src/engine/engine.js";
import { isDatabaseUrl, verifyStream, type EventStore } from "../src/log/index.js";
import { exportLines } from "../src/log/export-file.js";
import { readExportFile } from "../src/cli/commands/import.js";
import {
  benchKeys,
  playTemplate,
  syntheticCampaign,
  writeCampaign,
  type BenchKeys,
  type Template,
} from "./campaign.js";
import { cpuMsSince, fmt, median, type Figure } from "./figure.js";
import { contextFigures } from "./context-figures.js";
import { forecastFigures } from "./forecast.js";
import { timeMapRender } from "./map.js";
import { withProgress } from "./progress.js";
import { rawBaseline, rawHashAndVerifyTime, rawHashTime, signatureSample, type WorkTime } from "./raw-baselines.js";
import { serverFigures } from "./server-figures.js";

const argv = process.argv.slice(2);
const args = new Set(argv);
/** `--store URL`: the store figures on a PostgreSQL database (empty) instead of a LevelDB folder of the bench's own. */
const storeAt = args.has("--store") ? argv[argv.indexOf("--store") + 1] : undefined;
if (args.has("--store") && (storeAt === undefined || !isDatabaseUrl(storeAt)))
  throw new Error("--store takes the URL of an empty PostgreSQL database: --store postgres://user@host:port/database");
const quick = args.has("--quick");
const json = args.has("--json");
const serverOnly = args.has("--server");
const forecastOnly = args.has("--forecast");
const firstLooksOnly = args.has("--first-looks");
const branchesOnly = args.has("--branches");

const SIZES = quick
  ? {
      bigEvents: 100_000,
      smallEvents: 1_000,
      turns: 1_000,
      battleTurns: 100,
      samples: 100,
      fullSamples: 10,
      branches: 20,
      bulkAppend: 20_000,
      syncAppend: 1_000,
      runs: 3,
      servedRuns: 1,
      mapRenders: 100,
      forecastRuns: 40,
    }
  : {
      bigEvents: 1_000_000,
      smallEvents: 1_000,
      turns: 1_000,
      battleTurns: 1_000,
      samples: 200,
      fullSamples: 20,
      branches: 50,
      bulkAppend: 200_000,
      syncAppend: 3_000,
      runs: 3,
      servedRuns: 3,
      mapRenders: 500,
      forecastRuns: 400,
    };

const ms = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};
const rate = (events: number, millis: number) => (events / millis) * 1000;

/** The map of a 40 x 30 campaign with 80 armies, as a player sees it: the Node figure beside Chromium's (issue 15). */
function mapRenderMs(): Figure {
  const { medianMs, p90Ms, bytes } = timeMapRender(SIZES.mapRenders);
  return {
    name: "mapRenderMs",
    value: medianMs,
    unit: " ms",
    goal: "<= 16",
    met: medianMs <= 16,
    detail: `renderMap of 40 x 30 squares, 80 armies, 10 battles, 40 moves (${fmt(bytes / 1024)} KiB of SVG); median of ${SIZES.mapRenders}, p90 ${fmt(p90Ms, 2)} ms`,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Baselines

// ---------------------------------------------------------------------------------------------------------------
// Steps

async function generateBig(engine: Engine, template: Template, keys: BenchKeys): Promise<void> {
  await withProgress(`writing a ${fmt(SIZES.bigEvents)}-event log (battle-free turns)`, SIZES.bigEvents, (tick) =>
    writeCampaign(
      engine,
      "big",
      syntheticCampaign(template, Math.ceil(SIZES.bigEvents / 15), { battles: false }),
      keys,
      {
        maxEvents: SIZES.bigEvents,
        onProgress: tick,
      },
    ),
  );
}

/** The two logs branchCreateRatio forks: the big one and the small one. */
async function generateBranchParents(engine: Engine, template: Template, keys: BenchKeys): Promise<void> {
  await generateBig(engine, template, keys);
  await writeCampaign(
    engine,
    "small",
    syntheticCampaign(template, Math.ceil(SIZES.bigEvents / 15), { battles: false }),
    keys,
    {
      maxEvents: SIZES.smallEvents,
    },
  );
}

async function generate(engine: Engine, template: Template, keys: BenchKeys): Promise<void> {
  await generateBranchParents(engine, template, keys);
  await withProgress(`writing a ${fmt(SIZES.turns)}-turn campaign (battle-free turns)`, SIZES.turns * 35, (tick) =>
    writeCampaign(engine, "long", syntheticCampaign(template, SIZES.turns, { battles: false }), keys, {
      onProgress: tick,
    }),
  );
  await withProgress(
    `writing a ${fmt(SIZES.battleTurns)}-turn campaign (turns with their battles)`,
    SIZES.battleTurns * 50,
    (tick) =>
      writeCampaign(engine, "war", syntheticCampaign(template, SIZES.battleTurns, { battles: true }), keys, {
        onProgress: tick,
      }),
  );
}

async function replayRatio(store: EventStore): Promise<Figure> {
  const events = (await store.head("big")).seq;
  const raw: number[] = [];
  const full: number[] = [];
  await withProgress(`replaying ${fmt(events)} events, ${SIZES.runs} runs`, SIZES.runs * 2, async (tick) => {
    for (let run = 0; run < SIZES.runs; run++) {
      raw.push(await ms(() => baseline.scan("big")));
      tick(run * 2 + 1);
      full.push(await ms(() => new Replays(store, { snapshots: false }).current("big")));
      tick(run * 2 + 2);
    }
  });
  const rawRate = rate(events, median(raw));
  const replayRate = rate(events, median(full));
  const value = replayRate / rawRate;
  return {
    name: "replayRatio",
    value,
    unit: "",
    goal: ">= 0.5",
    met: value >= 0.5,
    detail: `full replay ${fmt(replayRate)} ev/s vs raw scan ${fmt(rawRate)} ev/s over ${fmt(events)} events (median of ${SIZES.runs})`,
  };
}

async function stateAtTurn(
  store: EventStore,
  stream: string,
  turns: number,
  suffix: string,
  kind: string,
): Promise<Figure[]> {
  const replays = new Replays(store);
  await replays.snapshots.clear(stream);
  const events = (await store.head(stream)).seq;
  const buildMs = await withProgress(
    `folding the ${fmt(turns)}-turn campaign (${kind}) once, taking snapshots`,
    1,
    () => ms(() => replays.current(stream)),
  );
  const snapshotCount = (await replays.snapshots.seqs(stream)).length;
  const snapshotMiB = (await replays.snapshots.size(stream)) / 2 ** 20;
  const random = seededRandom(`bench-state-at-${stream}`);
  const points: Array<{ turn: number; phase: TurnPhase }> = [];
  for (let i = 0; i < SIZES.samples; i++)
    points.push({ turn: 1 + Math.floor(random() * turns), phase: PHASES[Math.floor(random() * 3)]! });
  const snapshotMs: number[] = [];
  const speedups: number[] = [];
  const every = Math.ceil(SIZES.samples / SIZES.fullSamples);
  const kept = new Map<number, unknown>();
  let checked = 0;
  await withProgress(
    `state at ${SIZES.samples} turns from snapshots, ${SIZES.fullSamples} of them also by full replay`,
    SIZES.samples + SIZES.fullSamples,
    async (tick) => {
      // A few looks first, not counted: the first calls of a process compile the code they run.
      for (const point of points.slice(0, 10)) await new Replays(store).stateAt(stream, point);
      for (const [i, point] of points.entries()) {
        let state: unknown;
        snapshotMs.push(
          await ms(async () => {
            state = (await new Replays(store).stateAt(stream, point)).state;
          }),
        );
        if (i % every === 0) kept.set(i, state);
        tick(i + 1);
      }
      // The full replays after, apart: their garbage is not collected in the middle of the snapshot timings.
      for (const [i, state] of kept) {
        let slowState: unknown;
        const slow = await ms(async () => {
          slowState = (await new Replays(store, { snapshots: false }).stateAt(stream, points[i]!)).state;
        });
        if (!isDeepStrictEqual(state, slowState))
          throw new Error(
            `the state at turn ${points[i]!.turn} ${points[i]!.phase} from snapshots differs from the full replay`,
          );
        checked++;
        speedups.push(slow / snapshotMs[i]!);
        tick(SIZES.samples + checked);
      }
    },
  );
  const atMs = median(snapshotMs);
  const speedup = median(speedups);
  return [
    {
      name: `stateAtTurnMs${suffix}`,
      value: atMs,
      unit: "ms",
      goal: "<= 5",
      met: atMs <= 5,
      detail: `median of ${SIZES.samples} random turns and phases of a ${fmt(turns)}-turn campaign, ${kind} (${fmt(events)} events, ${snapshotCount} snapshots, ${fmt(snapshotMiB, 1)} MiB before compression, built in ${fmt(buildMs / 1000, 1)} s); p90 ${fmt(snapshotMs.sort((a, b) => a - b)[Math.floor(snapshotMs.length * 0.9)]!, 2)} ms`,
    },
    {
      name: `stateAtTurnSpeedup${suffix}`,
      value: speedup,
      unit: "x",
      goal: ">= 100",
      met: speedup >= 100,
      detail: `median of full replay / snapshot path over ${checked} of those points (states checked equal)`,
    },
  ];
}

async function branchCreateRatio(engine: Engine, keys: BenchKeys): Promise<Figure> {
  const store = engine.store;
  const replays = new Replays(store);
  const bigHead = (await store.head("big")).seq;
  const smallHead = (await store.head("small")).seq;
  const big: number[] = [];
  const small: number[] = [];
  // The parties' keys held for the parent, as a player's folder holds its own: the host signs a fork's ForkLine (D2).
  const make = async (parent: string, seq: number, name: string) => {
    const held = new MemorySecrets();
    for (const [party, { key }] of keys.parties) await held.keepSeatKey(party, key);
    return ms(() =>
      createBranch(engine, replays, {
        campaign: parent,
        parent,
        from: { seq },
        name,
        secrets: { parent: held, branch: new MemorySecrets() },
      }),
    );
  };
  for (let i = 0; i < SIZES.branches; i++) {
    big.push(await make("big", Math.floor(bigHead / 2) + i, `b${i}`));
    small.push(await make("small", Math.floor(smallHead / 2) + i, `b${i}`));
  }
  const value = median(big) / median(small);
  return {
    name: "branchCreateRatio",
    value,
    unit: "",
    goal: "<= 2",
    met: value <= 2,
    detail: `median ${fmt(median(big), 3)} ms on ${fmt(bigHead)} events vs ${fmt(median(small), 3)} ms on ${fmt(smallHead)} (${SIZES.branches} branches each, forked mid-log)`,
  };
}

async function appendRatio(engine: Engine, template: Template, sync: boolean): Promise<Figure> {
  const store = engine.store;
  const total = sync ? SIZES.syncAppend : SIZES.bulkAppend;
  const batchSize = sync ? 10 : 1000;
  const stream = sync ? "append-sync" : "append-bulk";
  const events: NewEvent[] = [];
  for (const batch of syntheticCampaign(template, Math.ceil(total / 15), { battles: true })) {
    events.push(...batch);
    if (events.length >= total) break;
  }
  events.length = total;
  // The values the engine writes for these events, to put again with plain LevelDB batches: written once first (not
  // timed), then engine appends and raw puts are timed batch by batch, taking turns, so both meet the same disk.
  for (let seq = 0; seq < total; seq += 1000)
    await store.append(`${stream}-values`, seq, events.slice(seq, seq + 1000), { sync: false });
  const values: string[] = [];
  for await (const batch of store.rawBatches(`${stream}-values`)) for (const [, value] of batch) values.push(value);
  let engineMs = 0;
  let rawMs = 0;
  await withProgress(
    `engine append vs raw puts of ${fmt(total)} events in batches of ${batchSize}, sync ${sync}`,
    total,
    async (tick) => {
      for (let seq = 0; seq < total; seq += batchSize) {
        const slice = events.slice(seq, seq + batchSize);
        engineMs += await ms(() => store.append(stream, seq, slice, { sync }));
        const batch = values.slice(seq, seq + batchSize);
        rawMs += await ms(() => baseline.put(`raw-${stream}`, seq + 1, batch, sync));
        tick(seq + batchSize);
      }
    },
  );
  const value = rate(total, engineMs) / rate(total, rawMs);
  return {
    name: sync ? "appendRatio" : "appendRatioBulk",
    value,
    unit: "",
    goal: ">= 0.5",
    met: value >= 0.5,
    detail: `engine ${fmt(rate(total, engineMs))} ev/s vs raw puts ${fmt(rate(total, rawMs))} ev/s; ${fmt(total)} events in batches of ${batchSize}, sync ${sync}`,
  };
}

async function verifyRatio(store: EventStore): Promise<Figure> {
  const events = (await store.head("big")).seq;
  let result: Awaited<ReturnType<typeof verifyStream>> | undefined;
  const verifyMs = await withProgress(`verifying the chain of ${fmt(events)} events`, 1, () =>
    ms(async () => {
      result = await verifyStream(store, "big");
    }),
  );
  if (!result?.ok) throw new Error("the generated log does not verify");
  const hashMs = (await rawHashTime(store, "big")).ms;
  const value = rate(events, verifyMs) / rate(events, hashMs);
  return {
    name: "verifyRatio",
    value,
    unit: "",
    goal: ">= 0.5",
    met: value >= 0.5,
    detail: `verify ${fmt(rate(events, verifyMs))} ev/s vs SHA-256 alone ${fmt(rate(events, hashMs))} ev/s over the same ${fmt(events)} bodies`,
  };
}

/**
 * Verify as `epicwar verify` runs it, the chain and every signed command against its party's key in force, against
 * SHA-256 of each event and one Ed25519 verification per event alone; alternating, SIZES.runs each, on the 1,000-turn
 * campaign (a signature costs some 40 times a hash: the million-event log would take minutes a run). The figure is the
 * ratio of CPU time (every thread's), which a loaded machine disturbs least; the wall-clock ratio is in its detail.
 */
async function verifySignaturesRatio(store: EventStore, stream: string): Promise<Figure> {
  const events = (await store.head(stream)).seq;
  const sample = await signatureSample(store, stream);
  if (!sample) throw new Error("the generated log registers no key");
  const verified: WorkTime[] = [];
  const raw: WorkTime[] = [];
  let signed = 0;
  await withProgress(
    `verifying the chain and signatures of ${fmt(events)} events, and SHA-256 + Ed25519 of each, ${SIZES.runs} runs`,
    SIZES.runs * 2,
    async (tick) => {
      for (let run = 0; run < SIZES.runs; run++) {
        const cpu = process.cpuUsage();
        const start = performance.now();
        const result = await verifyStream(store, stream, { signatures: true });
        verified.push({ ms: performance.now() - start, cpuMs: cpuMsSince(cpu) });
        if (!result.ok || !result.signatures) throw new Error("the generated log does not verify with its signatures");
        signed = result.signatures.signed;
        tick(run * 2 + 1);
        raw.push(await rawHashAndVerifyTime(store, stream, sample));
        tick(run * 2 + 2);
      }
    },
  );
  const of = (times: WorkTime[], which: keyof WorkTime) => median(times.map((time) => time[which]));
  const value = of(raw, "cpuMs") / of(verified, "cpuMs");
  const wall = of(raw, "ms") / of(verified, "ms");
  return {
    name: "verifySignaturesRatio",
    value,
    unit: "",
    goal: ">= 0.5",
    met: value >= 0.5,
    detail: `verify --signatures ${fmt(rate(events, of(verified, "cpuMs")))} ev per CPU-s vs SHA-256 + one Ed25519 verification per event alone ${fmt(rate(events, of(raw, "cpuMs")))}; wall-clock ratio ${fmt(wall, 2)} (${fmt(rate(events, of(verified, "ms")))} vs ${fmt(rate(events, of(raw, "ms")))} ev/s); ${fmt(events)} events, ${fmt(signed)} signed commands (median of ${SIZES.runs})`,
  };
}

/**
 * Import (`epicwar import`: read the file, check its whole chain and every event, write the stored values) of the big
 * log's export, into a folder of its own, against raw LevelDB puts of the very same values into another, sync false.
 */
async function importRatio(store: EventStore): Promise<Figure> {
  const file = join(dir, "big.jsonl");
  const writing = createWriteStream(file, { encoding: "utf8" });
  for await (const line of exportLines(store, await exportPlan(store, "big")))
    if (!writing.write(`${line}\n`)) await once(writing, "drain");
  writing.end();
  await once(writing, "finish");
  const imported = await Engine.open(join(dir, "imported"), { sync: false });
  const raw = await Engine.open(join(dir, "raw-puts"), { sync: false });
  try {
    let events = 0;
    const importMs = await withProgress("importing the export of the big log", 1, () =>
      ms(async () => {
        const checked = await readExportFile(file);
        events = checked.events;
        await imported.store.importStreams(checked.streams);
      }),
    );
    const values: string[] = [];
    for await (const batch of store.rawBatches("big")) for (const [, value] of batch) values.push(value);
    const rawPuts = rawBaseline(raw.store, undefined);
    const rawMs = await ms(async () => {
      for (let start = 0; start < values.length; start += 4096)
        await rawPuts.put("big", start + 1, values.slice(start, start + 4096), false);
    });
    const value = rate(events, importMs) / rate(values.length, rawMs);
    return {
      name: "importRatio",
      value,
      unit: "",
      goal: ">= 0.5",
      met: value >= 0.5,
      detail: `import ${fmt(rate(events, importMs))} ev/s (read, check, write) vs raw puts ${fmt(rate(values.length, rawMs))} ev/s of the same ${fmt(events)} values, sync false`,
    };
  } finally {
    await Promise.all([imported.close(), raw.close()]);
  }
}

// ---------------------------------------------------------------------------------------------------------------

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};

const dir = await mkdtemp(join(tmpdir(), "epicwar-bench-"));
const engine = await Engine.open(storeAt ?? dir, { sync: false });
if ((await engine.store.streams()).length > 0)
  throw new Error(`${engine.store.location} is not empty: give the bench a database of its own`);
const baseline = rawBaseline(engine.store, storeAt);
const figures: Figure[] = [];
const started = performance.now();
try {
  process.stderr.write(
    `epicwar bench${quick ? " --quick" : ""}: ${machine.nproc} CPUs (${machine.cpu}), ${machine.memoryGiB} GiB, node ${machine.node}; data in ${engine.store.location}\n`,
  );
  // --store, --forecast, --first-looks and --branches each leave out the map's and the server's figures.
  const anotherPartOnly = Boolean(storeAt) || forecastOnly || firstLooksOnly || branchesOnly;
  // First, on a quiet heap: the other steps leave behind garbage whose collection would land in its few milliseconds.
  if (!serverOnly && !anotherPartOnly)
    figures.push(await withProgress("drawing a 40 x 30 map with 80 armies", 1, async () => mapRenderMs()));
  // The server's figures run servers of their own on LevelDB folders: not a figure of the store. Next, so that the
  // in-process side is no warmer than the server: after the forecast's thousands of turns this process ran the rules
  // at a speed the server's new process reaches only after many campaigns, and after the store's figures LevelDB was
  // still compacting a million events and the kernel still writing them out.
  if (!anotherPartOnly) figures.push(...(await serverFigures(SIZES.servedRuns)));
  if (!serverOnly) {
    const template = await withProgress(
      "playing the demo campaign for a template of turns",
      1,
      () => playTemplate(),
      (t) => `${t.turns.length} turns`,
    );
    // The forecast's figures play in memory: not a figure of the store.
    if (!storeAt && !firstLooksOnly && !branchesOnly)
      figures.push(
        ...(await withProgress("forecasting Ashfall", 1, () => forecastFigures(template, SIZES.forecastRuns))),
      );
    if (firstLooksOnly) {
      await generateBig(engine, template, await benchKeys(template));
      figures.push(...(await contextFigures(engine.store, "big", SIZES.runs)));
    } else if (branchesOnly) {
      const keys = await benchKeys(template);
      await generateBranchParents(engine, template, keys);
      figures.push(await branchCreateRatio(engine, keys));
    } else if (!forecastOnly) {
      const keys = await benchKeys(template);
      await generate(engine, template, keys);
      figures.push(await replayRatio(engine.store));
      figures.push(...(await stateAtTurn(engine.store, "long", SIZES.turns, "", "battle-free turns")));
      figures.push(
        ...(await stateAtTurn(engine.store, "war", SIZES.battleTurns, "Battles", "turns with their battles")),
      );
      figures.push(await branchCreateRatio(engine, keys));
      figures.push(await appendRatio(engine, template, true));
      figures.push(await appendRatio(engine, template, false));
      figures.push(await verifyRatio(engine.store));
      figures.push(await verifySignaturesRatio(engine.store, "long"));
      figures.push(...(await contextFigures(engine.store, "big", SIZES.runs)));
      // An import into a folder of the bench's own: on PostgreSQL it would need a second database.
      if (!storeAt) figures.push(await importRatio(engine.store));
    }
  }
} finally {
  await baseline.close();
  await engine.close();
  if (args.has("--keep")) process.stderr.write(`kept ${dir}\n`);
  else await rm(dir, { recursive: true, force: true });
}

const rows = [
  ["figure", "value", "goal", "met", "measured"],
  ...figures.map((f) => [
    f.name,
    `${fmt(f.value, f.value < 10 ? 3 : 1)}${f.unit}`,
    f.goal,
    f.met === undefined ? "-" : f.met ? "yes" : "NO",
    f.detail,
  ]),
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
process.stdout.write(
  `\nepicwar bench${quick ? " --quick" : ""} (${fmt((performance.now() - started) / 1000, 1)} s) on ${machine.nproc} CPUs, ${machine.memoryGiB} GiB, node ${machine.node}\n`,
);
for (const row of rows)
  process.stdout.write(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}\n`);
if (json) {
  process.stdout.write(
    `${JSON.stringify({ quick, machine, seconds: (performance.now() - started) / 1000, figures: Object.fromEntries(figures.map((f) => [f.name, { value: f.value, goal: f.goal, met: f.met, detail: f.detail }])) })}\n`,
  );
}
