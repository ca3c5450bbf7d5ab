import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

const LARGER_YOUNG_GENERATION = ['--max-semi-space-size=64'];

/**
 * V8 flags per app, where measured to pay. The indexer and the projector get a 64 MB semi-space (V8's
 * default is 16 MB): each holds a few batches of thousands of decoded events at a time, which outlive a
 * small young generation's scavenges and are copied, then promoted, again and again. On the bench
 * pipeline's catch-up (203,922 events, bench/PROFILE.md, third round) the indexer's CPU went from
 * 19.0–21.6 s to 15.6–17.9 s and the catch-up from 26.0–29.5 s to 22.0–26.0 s. The API does not: in
 * bench/api it gained nothing measurable and idled at ~440 MB instead of ~200 MB; its heap tuning is
 * disableAllocationSitePretenuring, set at run time.
 * Containers get them as NODE_OPTIONS (docker/compose.yml, k8s/), which
 * apps/ops/test/deploy-manifests.spec.ts keeps equal to these.
 */
export const APP_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  indexer: LARGER_YOUNG_GENERATION,
  projector: LARGER_YOUNG_GENERATION,
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
