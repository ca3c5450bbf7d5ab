/**
 * `npm run reliability [-- --quick] [--only a,b] [--seed N] [--out DIR] [--new-heads]`: the reliability part of
 * issue 9. Runs the suites one after the other against real services (anvil, Postgres, Kafka, Redis,
 * the apps as processes), prints each suite's figures, writes reliability/results.json and the
 * reliability block of bench/RESULTS.md, and exits 1 when any suite saw a loss or a divergence.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeMachine, gitCommit, parseFlags } from '@lottery/testing';
import { writeReliabilityReport, type ReliabilityReport } from './lib/report';
import type { ReliabilitySuite, SuiteContext } from './lib/suite';
import { chaosSuite } from './suites/chaos';
import { badInput } from './suites/bad-input';
import { partnerRace } from './suites/partner-race';
import { reorgsSuite } from './suites/reorgs';
import { secrets } from './suites/secrets';

const SUITES: ReliabilitySuite[] = [chaosSuite, partnerRace, badInput, secrets, reorgsSuite];

const USAGE = `usage: npm run reliability -- [--quick] [--only ${SUITES.map((s) => s.name).join(',') || 'NAME,…'}] [--seed N] [--out DIR] [--new-heads]`;

interface Options {
  quick: boolean;
  newHeads: boolean;
  only: string[] | null;
  seed: number;
  /** results.json goes here (default reliability/), RESULTS.md to benchDir (default bench/). */
  outDir: string;
  benchDir: string;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    quick: false,
    newHeads: false,
    only: null,
    seed: Math.floor(Math.random() * 2 ** 31),
    outDir: resolve(__dirname),
    benchDir: resolve(__dirname, '../bench'),
  };
  parseFlags(argv, USAGE, (flag) => {
    switch (flag.name) {
      case '--quick':
        options.quick = true;
        break;
      case '--new-heads':
        options.newHeads = true;
        break;
      case '--only':
        options.only = flag.value().split(',');
        for (const name of options.only)
          if (!SUITES.some((s) => s.name === name)) throw new Error(`no suite named ${name}\n${USAGE}`);
        break;
      case '--seed':
        options.seed = flag.count();
        break;
      case '--out':
        // both files in one place, as `npm run bench -- --out DIR` does
        options.outDir = options.benchDir = resolve(flag.value());
        break;
      default:
        return false;
    }
    return true;
  });
  return options;
}

function log(message: string): void {
  console.log(`[reliability ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const machine = describeMachine('see each suite');
  const commit = gitCommit();
  const started = performance.now();
  const report: ReliabilityReport = {
    machine,
    commit,
    mode: `${options.quick ? 'quick (smoke sizes)' : 'full (issue 9 sizes)'}${options.newHeads ? ', indexer on RPC_WS_URL (newHeads)' : ''}`,
    seed: options.seed,
    seconds: 0,
    outcomes: [],
  };
  log(`seed ${options.seed}, ${report.mode}, commit ${commit}`);
  for (const suite of SUITES.filter((s) => options.only === null || options.only.includes(s.name))) {
    const context: SuiteContext = {
      quick: options.quick,
      newHeads: options.newHeads,
      seed: options.seed,
      log: (message) => log(`${suite.name}: ${message}`),
    };
    const suiteStarted = performance.now();
    log(`${suite.name}: starting`);
    let outcome;
    try {
      outcome = await suite.run(context);
    } catch (error) {
      // A suite that cannot finish proved nothing: that is a failure, not a skip.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      outcome = { title: suite.name, intro: '', rows: [], figures: {}, failures: [`the suite crashed: ${message}`] };
    }
    const seconds = (performance.now() - suiteStarted) / 1000;
    report.outcomes.push({ name: suite.name, seconds, outcome });
    for (const row of outcome.rows)
      log(`${suite.name}: ${row.figure}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    for (const failure of outcome.failures) log(`${suite.name}: FAILURE ${failure}`);
    log(`${suite.name}: ${outcome.failures.length === 0 ? 'passed' : 'FAILED'} in ${Math.round(seconds)} s`);
  }
  report.seconds = (performance.now() - started) / 1000;
  mkdirSync(options.outDir, { recursive: true });
  writeReliabilityReport(report, options.outDir, options.benchDir);
  const failed = report.outcomes.filter((o) => o.outcome.failures.length > 0).map((o) => o.name);
  log(failed.length === 0 ? 'all suites passed' : `failed: ${failed.join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
