/** The deployable contracts (Solidity name = file name) and the key each goes by in TypeScript. */
export const DEPLOYABLE_CONTRACTS = [
  'TestUSDC',
  'Jackpot',
  'LpManager',
  'FixedMultiplePayoutCalculator',
  'TicketNFT',
  'RandomTicketBuyer',
  'DailyTicketPool',
] as const;
export type DeployableContract = (typeof DEPLOYABLE_CONTRACTS)[number];

/** Exports `<key>Abi` / `<key>Bytecode` in the artifacts module; the key of its address in a deployment. */
export const CONTRACT_KEYS = {
  TestUSDC: 'usdc',
  Jackpot: 'jackpot',
  LpManager: 'lpManager',
  FixedMultiplePayoutCalculator: 'payoutCalculator',
  TicketNFT: 'ticketNft',
  RandomTicketBuyer: 'randomTicketBuyer',
  DailyTicketPool: 'dailyTicketPool',
} as const satisfies Record<DeployableContract, string>;
export type ContractKey = (typeof CONTRACT_KEYS)[DeployableContract];
