import { evaluateEligibility } from './partner-eligibility';

const partner = { active: true, quantityLeft: 5, perWalletMax: 2 };

describe('evaluateEligibility', () => {
  it('lets a wallet below its maximum take one of the tickets left', () => {
    expect(evaluateEligibility({ partner, walletGrants: 0 })).toEqual({ eligible: true });
    expect(evaluateEligibility({ partner, walletGrants: 1 })).toEqual({ eligible: true });
    expect(evaluateEligibility({ partner: { ...partner, quantityLeft: 1 }, walletGrants: 0 })).toEqual({
      eligible: true,
    });
  });

  it('refuses an unknown or disabled partner before looking at the wallet', () => {
    expect(evaluateEligibility({ partner: null, walletGrants: 0 })).toEqual({
      eligible: false,
      reason: 'partner_not_found',
    });
    expect(evaluateEligibility({ partner: { ...partner, active: false, quantityLeft: 0 }, walletGrants: 9 })).toEqual({
      eligible: false,
      reason: 'partner_disabled',
    });
  });

  it('refuses a wallet at its maximum, even when the partner is also out of tickets', () => {
    expect(evaluateEligibility({ partner, walletGrants: 2 })).toEqual({
      eligible: false,
      reason: 'wallet_limit_reached',
    });
    expect(evaluateEligibility({ partner: { ...partner, quantityLeft: 0 }, walletGrants: 3 })).toEqual({
      eligible: false,
      reason: 'wallet_limit_reached',
    });
  });

  it('refuses every wallet once the partner has no tickets left', () => {
    expect(evaluateEligibility({ partner: { ...partner, quantityLeft: 0 }, walletGrants: 0 })).toEqual({
      eligible: false,
      reason: 'quantity_exhausted',
    });
  });
});
