import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REORG_DEPTH } from '@lottery/chain';
import { loadPipelineEnv } from './pipeline-env';

describe('the chain variables ops reads', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-env-'));
  const saved = process.env['DATA_DIR'];
  beforeAll(() => (process.env['DATA_DIR'] = dataDir));
  afterAll(() => {
    if (saved === undefined) delete process.env['DATA_DIR'];
    else process.env['DATA_DIR'] = saved;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an RPC_URL the indexer refuses: a reindex would rewind a log for an indexer that cannot start', () => {
    const env = { EVENT_LOG: 'postgres', RPC_URL: 'ws://127.0.0.1:8545', CHAIN_ID: '31337' };
    expect(() => loadPipelineEnv(env)).toThrow(/RPC_URL: must be the http\(s\) JSON-RPC URL of a node/);
    expect(loadPipelineEnv({ ...env, RPC_URL: 'https://node.example/rpc' }).RPC_URL).toBe('https://node.example/rpc');
  });

  it("rewinds with the indexer's reorg depth unless told otherwise", () => {
    const env = { EVENT_LOG: 'postgres' };
    expect(loadPipelineEnv(env).REORG_DEPTH).toBe(DEFAULT_REORG_DEPTH);
    expect(loadPipelineEnv({ ...env, REORG_DEPTH: '12' }).REORG_DEPTH).toBe(12);
  });
});
