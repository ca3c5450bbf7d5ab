/** Accounts live apart from the read models (`lottery`): a replay may drop and rebuild those, never these. */
export const ACCOUNTS_SCHEMA = 'lottery_accounts';
