import { MAX_REORG_DEPTH } from '@lottery/chain';
import { ConfigError } from '@lottery/telemetry';
import { BASE_PRESET, loadIndexerConfig } from './config';

describe('indexer configuration', () => {
  const base = {
    RPC_URL: 'http://127.0.0.1:8545',
    CHAIN_ID: '31337',
    JACKPOT_ADDRESS: '0x' + 'ab'.repeat(20),
    START_BLOCK: '0',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lottery',
  };

  it('takes an http(s) node URL and nothing viem would retry without end', () => {
    expect(loadIndexerConfig(base).RPC_URL).toBe('http://127.0.0.1:8545');
    expect(loadIndexerConfig({ ...base, RPC_URL: 'https://base.example/v2/key' }).RPC_URL).toBe(
      'https://base.example/v2/key',
    );
    for (const url of ['ws://127.0.0.1:8545', 'localhost:8545', 'ftp://node']) {
      expect(() => loadIndexerConfig({ ...base, RPC_URL: url })).toThrow(/RPC_URL: must be the http\(s\) JSON-RPC URL/);
    }
  });

  it('refuses a REORG_DEPTH whose checkpoint would outgrow a Kafka record (every append would fail)', () => {
    expect(loadIndexerConfig({ ...base, REORG_DEPTH: String(MAX_REORG_DEPTH) }).REORG_DEPTH).toBe(MAX_REORG_DEPTH);
    expect(() => loadIndexerConfig({ ...base, REORG_DEPTH: String(MAX_REORG_DEPTH + 1) })).toThrow(
      /REORG_DEPTH: at most 4096: every append's checkpoint carries the window's block hashes/,
    );
  });

  it('fills in the Base preset, and refuses a NETWORK it does not know instead of ignoring it', () => {
    const { RPC_URL, START_BLOCK, DATABASE_URL } = base;
    const preset = loadIndexerConfig({ NETWORK: 'base', RPC_URL, START_BLOCK, DATABASE_URL });
    expect([preset.CHAIN_ID, preset.JACKPOT_ADDRESS]).toEqual([8453, BASE_PRESET.JACKPOT_ADDRESS]);
    expect(() => loadIndexerConfig({ ...base, NETWORK: 'Base' })).toThrow(ConfigError);
    expect(() => loadIndexerConfig({ ...base, NETWORK: 'base-sepolia' })).toThrow(/NETWORK: the only preset is "base"/);
    // reported with the other problems, in one message
    expect(() => loadIndexerConfig({ ...base, NETWORK: 'Base', RPC_URL: 'ws://node' })).toThrow(
      /NETWORK: the only preset is "base"[\s\S]*RPC_URL/,
    );
    expect(loadIndexerConfig({ ...base, NETWORK: '' }).CHAIN_ID).toBe(31337);
  });

  it('reports a LOG_LEVEL pino does not know with the other problems, not as a crash of the logger', () => {
    expect(() => loadIndexerConfig({ ...base, LOG_LEVEL: 'verbose', START_BLOCK: '-1' })).toThrow(
      /LOG_LEVEL: Invalid option[\s\S]*START_BLOCK|START_BLOCK[\s\S]*LOG_LEVEL: Invalid option/,
    );
    expect(loadIndexerConfig({ ...base, LOG_LEVEL: 'warn' }).LOG_LEVEL).toBe('warn');
  });
});
