import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFigures } from '../src/report/results-files';

describe('writeFigures', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'figures-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, number | null>;

  it('rounds to 3 decimals and writes what is not a finite number as null', () => {
    const path = join(dir, 'results.json');
    writeFigures(path, { a: 1.23456, b: NaN, c: Infinity });
    expect(read(path)).toEqual({ a: 1.235, b: null, c: null });
  });

  it("replaces only the keys a run owns and keeps the other runs' figures", () => {
    const path = join(dir, 'results.json');
    writeFileSync(path, JSON.stringify({ pipeline_seconds: 25, api_rps: 300, api_stale: 1 }));
    const isApi = (key: string) => key.startsWith('api_');
    writeFigures(path, { api_rps: 400 }, isApi);
    expect(read(path)).toEqual({ pipeline_seconds: 25, api_rps: 400 });
    writeFigures(path, { pipeline_seconds: 20 }, (key) => !isApi(key));
    expect(read(path)).toEqual({ api_rps: 400, pipeline_seconds: 20 });
  });

  it('owns every key by default: a run without a filter replaces the whole file', () => {
    const path = join(dir, 'results.json');
    writeFileSync(path, JSON.stringify({ old: 1 }));
    writeFigures(path, { fresh: 2 });
    expect(read(path)).toEqual({ fresh: 2 });
  });
});
