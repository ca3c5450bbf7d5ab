/**
 * The environment variables that name the lottery's contracts on a real chain, by the contract's key (a
 * deployment's `addresses`), as the indexer reads them and `ops start` passes them on: the jackpot's is
 * required, the others optional.
 */
const CONTRACT_VARIABLE_OF = {
  jackpot: 'JACKPOT_ADDRESS',
  lpManager: 'LP_MANAGER_ADDRESS',
  payoutCalculator: 'PAYOUT_CALCULATOR_ADDRESS',
  randomTicketBuyer: 'RANDOM_TICKET_BUYER_ADDRESS',
  dailyTicketPool: 'DAILY_POOL_ADDRESS',
} as const;

export type NamedContract = keyof typeof CONTRACT_VARIABLE_OF;
export type ContractVariable = (typeof CONTRACT_VARIABLE_OF)[NamedContract];

export const CONTRACT_VARIABLES: readonly ContractVariable[] = Object.values(CONTRACT_VARIABLE_OF);

const NAMED = Object.entries(CONTRACT_VARIABLE_OF) as [NamedContract, ContractVariable][];

/** The variables naming `contracts`, in CONTRACT_VARIABLES' order (undefined for a contract not given). */
export function contractVariables(
  contracts: Partial<Record<NamedContract, string>>,
): Record<ContractVariable, string | undefined> {
  return Object.fromEntries(NAMED.map(([key, variable]) => [variable, contracts[key]])) as Record<
    ContractVariable,
    string | undefined
  >;
}

/** The contracts the set variables of `env` name. */
export function contractsNamedIn(env: Record<string, string | undefined>): Partial<Record<NamedContract, string>> {
  return Object.fromEntries(NAMED.flatMap(([key, variable]) => (env[variable] ? [[key, env[variable]]] : [])));
}
