import { parseFlags } from '@lottery/testing';

/**
 * Command-line flags of `npm run bench`. Defaults are the sizes of issue 9 (≥ 200,000 events, 1,000
 * latency samples); `--quick` is a smoke-test run of a few minutes.
 */
export interface BenchOptions {
  quick: boolean;
  /** Lottery events to generate on anvil (at least). */
  events: number;
  /** Realtime latency samples. */
  samples: number;
  /** anvil's block gas limit: it sets how many bulk orders share a block (100M: nine orders of 150 tickets). */
  gasLimit: bigint;
  /** Empty blocks mined after the history (see chain-history.ts): just over the indexer's REORG_DEPTH (128). */
  trailingBlocks: number;
  /** Measure the Kafka event log too (needs Java; the harness fetches the broker with Maven once). */
  kafka: boolean;
  /** Try the Ponder comparison (npm install of ponder@0.16 into a temporary folder). */
  ponder: boolean;
  /** Run bench:api (the Data API against a raw server on generated tickets) as the last stage. */
  api: boolean;
  /** Keep the scratch database (for inspection) instead of dropping it. */
  keep: boolean;
  /** Where RESULTS.md and results.json go (default: bench/). */
  outDir: string | null;
}

const USAGE = `usage: npm run bench -- [--quick] [--events N] [--samples N] [--gas-limit N] [--trailing-blocks N]
                        [--no-kafka] [--no-ponder] [--no-api] [--keep] [--out DIR]`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = {
    quick,
    events: quick ? 20_000 : 200_000,
    samples: quick ? 100 : 1_000,
    gasLimit: 100_000_000n,
    trailingBlocks: 130,
    kafka: true,
    ponder: true,
    api: true,
    keep: false,
    outDir: null,
  };
  parseFlags(argv, USAGE, (flag) => {
    switch (flag.name) {
      case '--quick':
        break;
      case '--events':
        options.events = flag.count();
        break;
      case '--samples':
        options.samples = flag.count();
        break;
      case '--gas-limit':
        options.gasLimit = BigInt(flag.count());
        break;
      case '--trailing-blocks':
        options.trailingBlocks = flag.count();
        break;
      case '--no-kafka':
        options.kafka = false;
        break;
      case '--no-ponder':
        options.ponder = false;
        break;
      case '--no-api':
        options.api = false;
        break;
      case '--keep':
        options.keep = true;
        break;
      case '--out':
        options.outDir = flag.value();
        break;
      default:
        return false;
    }
    return true;
  });
  return options;
}
