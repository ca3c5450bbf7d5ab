import { ConfigError } from '@lottery/telemetry';
import { loadApiConfig } from './api-config';
import { ANVIL_DEV_PRIVATE_KEY } from './giveaways-config';

const DATABASE_URL = 'postgres://u:p@localhost:5432/lottery';
const CHAIN = {
  RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '8453',
  RANDOM_TICKET_BUYER_ADDRESS: '0xAbCdEf0123456789aBcDeF0123456789abCDef01',
  OPERATOR_PRIVATE_KEY: `0x${'1F'.repeat(32)}`,
};

const problemsOf = (env: Record<string, string>): string => {
  try {
    loadApiConfig({ DATABASE_URL, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
};

describe('giveaway configuration', () => {
  it('is off without chain variables, so the Data API runs without a chain', () => {
    expect(loadApiConfig({ DATABASE_URL }).giveaways).toBeNull();
  });

  it('reads the chain, the buyer and the signer, lowercased, with a 30 s default job timeout', () => {
    expect(loadApiConfig({ DATABASE_URL, ...CHAIN }).giveaways).toEqual({
      rpcUrl: CHAIN.RPC_URL,
      chainId: 8453,
      randomTicketBuyer: CHAIN.RANDOM_TICKET_BUYER_ADDRESS.toLowerCase(),
      operatorPrivateKey: CHAIN.OPERATOR_PRIVATE_KEY.toLowerCase(),
      jobTimeoutMs: 30_000,
      maxFeePerGas: null,
    });
    expect(loadApiConfig({ DATABASE_URL, ...CHAIN, PARTNER_JOB_TIMEOUT_MS: '5000' }).giveaways?.jobTimeoutMs).toBe(
      5000,
    );
  });

  it('reads the fee ceiling in gwei, to the wei', () => {
    const ceiling = (gwei: string) =>
      loadApiConfig({ DATABASE_URL, ...CHAIN, PARTNER_MAX_FEE_GWEI: gwei }).giveaways?.maxFeePerGas;
    expect([ceiling('0.5'), ceiling('12'), ceiling('0.000000001')]).toEqual([500_000_000n, 12_000_000_000n, 1n]);
    for (const bad of ['0', 'abc', '-1', '0.0000000001', '1e9']) {
      expect([bad, problemsOf({ ...CHAIN, PARTNER_MAX_FEE_GWEI: bad })]).toEqual([
        bad,
        expect.stringContaining('PARTNER_MAX_FEE_GWEI'),
      ]);
    }
  });

  it('refuses a partial chain configuration, naming what is missing', () => {
    const text = problemsOf({ RPC_URL: CHAIN.RPC_URL, CHAIN_ID: '1' });
    expect(text).toContain('RANDOM_TICKET_BUYER_ADDRESS');
    expect(text).toContain('OPERATOR_PRIVATE_KEY');
  });

  it('reports a partial chain configuration beside malformed variables, in one message', () => {
    const text = problemsOf({ PORT: 'abc', RPC_URL: CHAIN.RPC_URL });
    for (const problem of ['PORT:', 'CHAIN_ID: required when', 'OPERATOR_PRIVATE_KEY: required when']) {
      expect(text).toContain(problem);
    }
  });

  it('accepts the public anvil key only on anvil, by name', () => {
    expect(
      loadApiConfig({ DATABASE_URL, ...CHAIN, CHAIN_ID: '31337', OPERATOR_PRIVATE_KEY: 'anvil' }).giveaways
        ?.operatorPrivateKey,
    ).toBe(ANVIL_DEV_PRIVATE_KEY);
    expect(problemsOf({ ...CHAIN, OPERATOR_PRIVATE_KEY: 'anvil' })).toContain('only accepted with CHAIN_ID=31337');
  });

  it('validates each variable without echoing the private key', () => {
    const secret = `0x${'9'.repeat(63)}`;
    const text = problemsOf({
      RPC_URL: 'ftp://x',
      CHAIN_ID: '0',
      RANDOM_TICKET_BUYER_ADDRESS: '0x12',
      OPERATOR_PRIVATE_KEY: secret,
      PARTNER_JOB_TIMEOUT_MS: '10',
    });
    for (const name of [
      'RPC_URL',
      'CHAIN_ID',
      'RANDOM_TICKET_BUYER_ADDRESS',
      'OPERATOR_PRIVATE_KEY',
      'PARTNER_JOB_TIMEOUT_MS',
    ]) {
      expect(text).toContain(name);
    }
    expect(text).not.toContain(secret);
  });
});
