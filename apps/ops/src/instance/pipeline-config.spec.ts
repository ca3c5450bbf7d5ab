import {
  appEnvironments,
  appProcessEnvironment,
  externalChainTarget,
  PIPELINE_VARIABLES,
  type PipelineSettings,
} from './pipeline-config';

/** Settings with everything configured: every variable appEnvironments knows is given to some app. */
const everything: PipelineSettings = {
  chain: {
    rpcUrl: 'https://rpc.example',
    wsUrl: 'wss://rpc.example',
    chainId: 8453,
    startBlock: 100,
    contracts: {
      jackpot: '0x01',
      lpManager: '0x02',
      payoutCalculator: '0x03',
      randomTicketBuyer: '0x04',
      dailyTicketPool: '0x05',
    },
    operatorPrivateKey: '0xkey',
  },
  databaseUrl: 'postgres://db/lottery',
  kafkaBrokers: 'kafka:9092',
  kafkaTopicPrefix: 'lottery',
  redisUrl: 'redis://redis',
  apiPort: 3000,
  metricsPorts: { indexer: 9464, projector: 9465 },
};

describe('a real chain (RPC_URL)', () => {
  const address = (digit: string) => `0x${digit.repeat(40)}`;
  const chain = { RPC_URL: 'https://rpc.example', CHAIN_ID: '8453', START_BLOCK: '100', JACKPOT_ADDRESS: address('1') };

  it('names the variables it still needs', () => {
    expect(() => externalChainTarget({ RPC_URL: 'https://rpc.example' })).toThrow(
      'RPC_URL is set, so a real chain is used: also set CHAIN_ID, START_BLOCK, JACKPOT_ADDRESS',
    );
  });

  it('takes the partner purchase variables both or neither', () => {
    expect(() => externalChainTarget({ ...chain, OPERATOR_PRIVATE_KEY: '0xkey' })).toThrow(
      'OPERATOR_PRIVATE_KEY is set, so partner tickets are bought on chain: also set RANDOM_TICKET_BUYER_ADDRESS',
    );
    expect(() => externalChainTarget({ ...chain, RANDOM_TICKET_BUYER_ADDRESS: address('4') })).toThrow(
      /also set OPERATOR_PRIVATE_KEY$/,
    );
    expect(externalChainTarget(chain).operatorPrivateKey).toBeUndefined();
    const both = externalChainTarget({
      ...chain,
      OPERATOR_PRIVATE_KEY: '0xkey',
      RANDOM_TICKET_BUYER_ADDRESS: address('4'),
    });
    expect([both.operatorPrivateKey, both.contracts.randomTicketBuyer]).toEqual(['0xkey', address('4')]);
  });

  it('refuses a chain id, start block or contract address of the wrong shape, naming the variable', () => {
    for (const [name, value, message] of [
      ['CHAIN_ID', 'abc', 'CHAIN_ID must be a whole number from 1, got "abc"'],
      ['CHAIN_ID', '0', 'CHAIN_ID must be a whole number from 1, got "0"'],
      ['START_BLOCK', 'x', 'START_BLOCK must be a whole number from 0, got "x"'],
      ['START_BLOCK', '1.5', 'START_BLOCK must be a whole number from 0, got "1.5"'],
      ['JACKPOT_ADDRESS', '0x1', 'not an address (0x and 40 hex digits): JACKPOT_ADDRESS="0x1"'],
      ['DAILY_POOL_ADDRESS', 'pool', 'not an address (0x and 40 hex digits): DAILY_POOL_ADDRESS="pool"'],
    ]) {
      expect(() => externalChainTarget({ ...chain, [name]: value })).toThrow(message);
    }
    expect(externalChainTarget({ ...chain, START_BLOCK: '0' })).toMatchObject({ chainId: 8453, startBlock: 0 });
  });
});

describe('app process environments', () => {
  it('knows every variable appEnvironments gives any app', () => {
    const given = Object.values(appEnvironments(everything)).flatMap((env) => Object.keys(env));
    expect(given.filter((name) => !(PIPELINE_VARIABLES as readonly string[]).includes(name))).toEqual([]);
  });

  it("keeps the operator's other variables, never the pipeline's an app was not given", () => {
    // the operator's shell names a real chain (for the indexer), with no signer: the API gets no chain
    const operator = {
      RPC_URL: 'https://rpc.example',
      CHAIN_ID: '8453',
      OPERATOR_PRIVATE_KEY: '0xkey',
      LOG_LEVEL: 'debug',
    };
    const api = appEnvironments({ ...everything, chain: { ...everything.chain, operatorPrivateKey: undefined } }).api;
    const env = appProcessEnvironment(operator, api);
    expect(env).toMatchObject({ LOG_LEVEL: 'debug', DATABASE_URL: 'postgres://db/lottery', PORT: '3000' });
    expect([env['RPC_URL'], env['CHAIN_ID'], env['OPERATOR_PRIVATE_KEY']]).toEqual([undefined, undefined, undefined]);
  });
});
