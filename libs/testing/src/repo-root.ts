import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The workspace root (where nx.json is), found from this file so it works from any jest rootDir. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${__dirname}: is the harness outside the workspace?`);
    dir = parent;
  }
  return dir;
}
