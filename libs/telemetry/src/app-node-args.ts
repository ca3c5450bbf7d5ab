import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * V8 flags every app process runs with. A 64 MB semi-space (V8's default is 16 MB): the indexer and the
 * projector each hold a few batches of thousands of decoded events at a time, which outlive a small young
 * generation's scavenges and are copied, then promoted, again and again. On the bench pipeline's
 * catch-up (203,922 events, bench/PROFILE.md) the indexer's CPU went from 19.0–21.6 s to 15.6–17.9 s and
 * the catch-up from 26.0–29.5 s to 22.0–26.0 s, for ~100 MB more resident memory per process.
 * docker/Dockerfile and docker/compose.yml spell the same flags (apps/ops/test/deploy-manifests.spec.ts
 * keeps them equal).
 */
export const APP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * node's arguments to run a TypeScript entry point (a path from the repository's root) as production
 * does: the app flags, `extra` (e.g. `--cpu-prof`), the swc hook.
 */
export function appNodeArgs(entry: string, extra: readonly string[] = []): string[] {
  return [...APP_NODE_FLAGS, ...extra, '-r', join(ROOT, 'tools', 'register.js'), join(ROOT, entry)];
}
