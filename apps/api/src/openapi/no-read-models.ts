import type { ReadModelQueries } from '@lottery/persistence';

/**
 * Read models for code paths that must not read data: generating the OpenAPI document, and unit
 * tests that override only the queries they expect. Any other query fails loudly.
 */
export class NoReadModels implements ReadModelQueries {
  activeRound = unavailable;
  listRounds = unavailable;
  roundById = unavailable;
  roundTickets = unavailable;
  roundWins = unavailable;
  walletStats = unavailable;
  walletTickets = unavailable;
  walletWins = unavailable;
  poolActiveRound = unavailable;
  poolLatestCompletedRound = unavailable;
  poolRound = unavailable;
  poolEntries = unavailable;
  poolWalletEntries = unavailable;
  inSnapshot = unavailable;
}

async function unavailable(): Promise<never> {
  throw new Error('no read model query is expected here');
}
