/**
 * The environment variables that name the lottery's contracts on a real chain, as the indexer reads
 * them and `ops start` passes them on: the jackpot's is required, the others optional.
 */
export const CONTRACT_VARIABLES = [
  'JACKPOT_ADDRESS',
  'LP_MANAGER_ADDRESS',
  'PAYOUT_CALCULATOR_ADDRESS',
  'RANDOM_TICKET_BUYER_ADDRESS',
  'DAILY_POOL_ADDRESS',
] as const;
