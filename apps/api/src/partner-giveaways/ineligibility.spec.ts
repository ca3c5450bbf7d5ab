import { PlainApiError } from '../http/plain-api-error';
import { ineligible, REASON_TEXT } from './ineligibility';

describe('partner ineligibility answers', () => {
  it('words each limit distinctly, with eligible: false', () => {
    expect(ineligible('wallet_limit_reached')).toEqual({ eligible: false, error: 'Wallet limit reached' });
    expect(ineligible('quantity_exhausted')).toEqual({ eligible: false, error: 'Free tickets limit reached' });
    expect(new Set(Object.values(REASON_TEXT)).size).toBe(3);
  });

  it('turns an unknown or disabled partner into 401 {eligible: false, error}', () => {
    for (const reason of ['partner_not_found', 'partner_disabled'] as const) {
      let thrown: unknown;
      try {
        ineligible(reason);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(PlainApiError);
      const error = thrown as PlainApiError;
      expect([error.status, error.body()]).toEqual([
        401,
        { eligible: false, error: 'Invalid API key or partner not found' },
      ]);
      expect(Object.keys(error.body())).toEqual(['eligible', 'error']);
    }
  });
});
