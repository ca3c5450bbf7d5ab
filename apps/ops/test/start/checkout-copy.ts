import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * The repository as a fresh clone has it (tracked and new files, nothing git ignores: no `.data/`,
 * no caches) in a temporary folder. node_modules is linked rather than installed again: `npm ci` is
 * what CI itself has just run.
 */
export function freshCheckout(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'lottery-checkout-'));
  // A clone's folder is 0755; mkdtemp makes 0700, which embedded Postgres (run as "postgres" under root) cannot enter.
  chmodSync(dir, 0o755);
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(REPO_ROOT, file), join(dir, file));
    } catch {
      // A file deleted in the working tree but still tracked: a fresh clone of this tree lacks it too.
    }
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
