// The local lottery: compiled contracts, deployment, and the seeded activity simulator (history, live, bulk).
// The Solidity compiler is not exported here: it loads solc, which only the compile script and its test need.
export * from './generated/artifacts';
export { DEPLOYABLE_CONTRACTS, CONTRACT_KEYS } from './compile/contract-names';
export type { ContractKey, DeployableContract } from './compile/contract-names';
export {
  LOTTERY_ABIS,
  LOTTERY_EVENT_SOURCES,
  lotteryErrorsAbi,
  lotteryEventAddresses,
  type LotteryAddresses,
} from './lottery-abis';
export { DEFAULT_LOTTERY_CONFIG, USDC_UNIT, type LotteryConfig } from './lottery-config';
export { deployLottery, type DeployOptions, type LotteryDeployment } from './deploy';
export { approveRandomTicketBuyer } from './giveaway-allowance';
export { simulateHistory, type HistoryOptions, type HistoryResult } from './simulation/history';
export { startLiveSimulation, type LiveOptions, type LiveSimulation } from './simulation/live';
export { simulateBulk, type BulkOptions, type BulkResult } from './simulation/bulk';
export { runAndSettle, type SettledDrawing } from './simulation/draws';
export type { SimulationOptions, SimulationStats } from './simulation/simulation-context';
export type { WalletCounts } from './simulation/wallets';
export { SeededRandom } from './simulation/seeded-random';
// Single actions on a live deployment, for tests that need a purchase at a chosen moment.
export { createSimulationContext, type SimulationContext } from './simulation/simulation-context';
export { buyOrder, buyQuickPicks } from './simulation/purchases';
export { startAnvil, anvilBinaryPath, type AnvilOptions, type AnvilInstance } from './local-chain/anvil-process';
