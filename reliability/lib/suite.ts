/**
 * What every reliability suite gives back. A suite proves one production hazard harmless (crashes,
 * reorgs, races, bad input, leaked secrets) and exits the run non-zero through `failures`: any loss or
 * divergence it saw is a failure, named with enough detail to reproduce it.
 */
export interface SuiteContext {
  /** A smoke run of a minute or two instead of the full sizes. */
  quick: boolean;
  /** The indexer also follows the node's newHeads (RPC_WS_URL), the experimental mode, instead of only polling. */
  newHeads: boolean;
  /** Seed of the run's random choices (printed, so a failing run can be repeated with --seed). */
  seed: number;
  log(message: string): void;
}

export interface Row {
  figure: string;
  value: string;
  note?: string;
}

export interface SuiteOutcome {
  title: string;
  /** What was done, in a sentence or two (goes above the table in bench/RESULTS.md). */
  intro: string;
  rows: Row[];
  /** Named numbers for reliability/results.json, e.g. kills_survived, rows_differing. */
  figures: Record<string, number>;
  /** Every loss or divergence seen; empty when the suite passed. */
  failures: string[];
}

export interface ReliabilitySuite {
  /** The --only name. */
  name: string;
  run(context: SuiteContext): Promise<SuiteOutcome>;
}
