import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterPassword } from './embedded-postgres';

describe('clusterPassword', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-password-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the kept one; makes a new random one for a cluster to be made; a cluster made before keeps its old default', () => {
    expect(clusterPassword(dir, 'kept-secret')).toBe('kept-secret');
    const made = clusterPassword(dir, undefined);
    expect(made).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(clusterPassword(dir, undefined)).not.toBe(made);
    mkdirSync(join(dir, 'postgres'));
    writeFileSync(join(dir, 'postgres', 'PG_VERSION'), '18\n');
    expect(clusterPassword(dir, undefined)).toBe('postgres');
  });
});
