import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

const LARGER_YOUNG_GENERATION = ['--max-semi-space-size=64'];

/**
 * V8 flags per app, where measured to pay. The indexer and the projector get a 64 MB semi-space (V8's
 * default is 16 MB): each holds a few batches of thousands of decoded events at a time, which outlive a
 * small young generation's scavenges and are copied, then promoted, again and again. On the bench
 * pipeline's catch-up (203,922 events, bench/PROFILE.md, third round) the indexer's CPU went from
 * 19.0–21.6 s to 15.6–17.9 s and the catch-up from 26.0–29.5 s to 22.0–26.0 s. So does the ops CLI,
 * in whose process `ops replay` folds the whole log in batches of 50,000 events: bench/projector-replay
 * (214,989 events) used 4.1–5.0 s of CPU against 4.6–5.8 s and was faster in five of six alternating
 * pairs (bench/PROFILE.md, fourteenth round).
 *
 * The API, which serves many small concurrent requests, gets four:
 * - `--no-parallel-scavenge`: it scavenges on its main thread only. Its scavenges are short (~1.5 ms)
 *   but, run in parallel, each waits for every helper thread it handed work to, and on a busy machine a
 *   helper waits 16–22 ms for a core while the request queue stands still (bench/PROFILE.md, eleventh
 *   round). Marking the old generation stays concurrent: with `--single-threaded-gc`, which also kept the
 *   scavenges on the main thread, one mark-compact took 135 ms of the main thread in 400 ms, and the
 *   paced p99 of two A/B pairs was 62–64 ms against 18–49 ms with this flag (twelfth round).
 * - `--no-memory-reducer`: V8 takes a steady, moderate allocation rate for an idle spell and runs
 *   memory-reducing collections (it shrinks the young generation to ~1 MB, then marks the whole heap): a
 *   scavenge every few ms and a full mark on the request path, which bench/api saw as 150–250 ms episodes
 *   on both of its servers (bench/PROFILE.md, twelfth round). The heap still grows and shrinks by V8's
 *   ordinary limits.
 * - `--no-allocation-site-pretenuring`: under load a scavenge finds the rows of the queries in flight
 *   alive, and V8 concludes that objects made where pg builds a row live long; from then on it allocates
 *   rows in the old generation, where each keeps its young strings, arrays and Dates alive until the next
 *   full collection. On `/v1/rounds/{id}/tickets` that was ~1.3 MB promoted per scavenge and 5–8 ms
 *   pauses; without pretenuring 0.19 MB and ~1.8 ms, and 10–35 % less CPU per request on the data routes
 *   (bench/PROFILE.md, tenth round).
 * - `--heap-growing-percent=100`: the old generation may grow to twice what the last full collection left
 *   (~70 MB live) before the next one. Each mark-compact under load was a 120–280 ms stretch of slow answers
 *   (60–97 of them over 10 ms, up to 88 ms): on two cores its concurrent marking and sweeping compete with
 *   the requests. The API promotes 0.4–0.7 MB/s under load, and with V8's own limit ~110 s of bench/api
 *   load still had up to two; with this flag none, for ~40 MB more heap (bench/PROFILE.md, thirteenth
 *   round).
 * A larger semi-space gained the API nothing and doubled its idle memory.
 *
 * On node's command line, before the entry point, everywhere the apps run: `npm start`, `npm run ops`, the
 * benches and the containers (docker/, k8s/; apps/ops/test/deploy-manifests.spec.ts keeps them equal to these).
 * Not NODE_OPTIONS: node refuses the API's flags there.
 */
export const APP_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  indexer: LARGER_YOUNG_GENERATION,
  projector: LARGER_YOUNG_GENERATION,
  ops: LARGER_YOUNG_GENERATION,
  api: [
    '--no-parallel-scavenge',
    '--no-memory-reducer',
    '--no-allocation-site-pretenuring',
    '--heap-growing-percent=100',
  ],
};

/**
 * node's arguments to run a TypeScript entry point (a path from the repository's root) as production
 * does: the app's flags (for `apps/<app>/src/main.ts`), `extra` (e.g. `--cpu-prof`), the swc hook.
 */
export function appNodeArgs(entry: string, extra: readonly string[] = []): string[] {
  const app = /^apps\/([^/]+)\/src\/main\.ts$/.exec(entry)?.[1];
  const flags = (app && APP_NODE_FLAGS[app]) || [];
  return [...flags, ...extra, '-r', join(ROOT, 'tools', 'register.js'), join(ROOT, entry)];
}
