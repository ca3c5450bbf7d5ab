import { CONTRACT_VARIABLES, contractsNamedIn, contractVariables } from './contract-variables';

describe('contract variables', () => {
  it('names each contract by its variable and reads back only the ones set', () => {
    const contracts = { jackpot: '0x01', dailyTicketPool: '0x05' };
    const env = contractVariables(contracts);
    expect(Object.keys(env)).toEqual([...CONTRACT_VARIABLES]);
    expect(env).toMatchObject({ JACKPOT_ADDRESS: '0x01', DAILY_POOL_ADDRESS: '0x05', LP_MANAGER_ADDRESS: undefined });
    // an empty variable is not set (a compose file's `LP_MANAGER_ADDRESS=`)
    expect(contractsNamedIn({ ...env, LP_MANAGER_ADDRESS: '', OTHER: 'x' })).toEqual(contracts);
  });
});
