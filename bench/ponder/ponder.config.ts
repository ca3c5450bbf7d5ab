// Ponder 0.16 on the lottery contracts the indexer app reads, configured by bench/stages/ponder.ts through
// the environment. abis.ts is written next to this file at bench time from libs/contracts' ABIs.
import { createConfig } from 'ponder';
import { abis } from './abis';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const address = (name: string) => env(name) as `0x${string}`;
const blocks = { startBlock: Number(env('PONDER_START_BLOCK')), endBlock: Number(env('PONDER_END_BLOCK')) };

export default createConfig({
  database: { kind: 'postgres', connectionString: env('DATABASE_URL') },
  chains: {
    anvil: { id: Number(env('PONDER_CHAIN_ID')), rpc: env('PONDER_RPC_URL') },
  },
  contracts: {
    Jackpot: { chain: 'anvil', abi: abis.jackpot, address: address('JACKPOT_ADDRESS'), ...blocks },
    LpManager: { chain: 'anvil', abi: abis.lpManager, address: address('LP_MANAGER_ADDRESS'), ...blocks },
    PayoutCalculator: {
      chain: 'anvil',
      abi: abis.payoutCalculator,
      address: address('PAYOUT_CALCULATOR_ADDRESS'),
      ...blocks,
    },
    RandomTicketBuyer: {
      chain: 'anvil',
      abi: abis.randomTicketBuyer,
      address: address('RANDOM_TICKET_BUYER_ADDRESS'),
      ...blocks,
    },
    DailyTicketPool: { chain: 'anvil', abi: abis.dailyTicketPool, address: address('DAILY_POOL_ADDRESS'), ...blocks },
  },
});
