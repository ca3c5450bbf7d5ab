import { encodeCursor } from '@lottery/domain';
import { AddressPipe } from './address.pipe';
import { BY_AMOUNT_THEN_ID, BY_ID } from './page-query.pipe';
import { RoundIdPipe } from './round-id.pipe';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'none';
};

describe('request parameters', () => {
  it('parse round ids as digits, 400 otherwise, 422 beyond uint256', () => {
    const pipe = new RoundIdPipe();
    expect(pipe.transform('0042')).toBe(42n);
    expect(codeOf(() => pipe.transform('4e2'))).toBe('invalid_request');
    expect(codeOf(() => pipe.transform(''))).toBe('invalid_request');
    expect(codeOf(() => pipe.transform(String(2n ** 256n)))).toBe('validation_failed');
  });

  it('accept addresses in any case and store them lowercase', () => {
    const pipe = new AddressPipe();
    expect(pipe.transform('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    );
    expect(codeOf(() => pipe.transform('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae'))).toBe('invalid_address');
  });

  it('default limit to 50 and clamp it to 1..100', () => {
    expect(BY_ID.transform({})).toEqual({ limit: 50, after: null });
    expect(BY_ID.transform({ limit: '100' }).limit).toBe(100);
    expect(BY_ID.transform({ limit: '101' }).limit).toBe(100);
    expect(BY_ID.transform({ limit: '0' }).limit).toBe(1);
    expect(BY_ID.transform({ limit: '-3' }).limit).toBe(1);
    expect(codeOf(() => BY_ID.transform({ limit: '2.0' }))).toBe('invalid_request');
    expect(codeOf(() => BY_ID.transform({ limit: ['1', '2'] }))).toBe('invalid_request');
  });

  it('accept only cursors with the key shape of their list', () => {
    expect(BY_ID.transform({ cursor: encodeCursor([7n]) }).after).toEqual([7n]);
    expect(BY_AMOUNT_THEN_ID.transform({ cursor: encodeCursor([10n ** 30n, 7n]) }).after).toEqual([10n ** 30n, 7n]);
    expect(codeOf(() => BY_ID.transform({ cursor: encodeCursor([1n, 2n]) }))).toBe('invalid_cursor');
    expect(codeOf(() => BY_AMOUNT_THEN_ID.transform({ cursor: encodeCursor([1n, 2n ** 64n]) }))).toBe('invalid_cursor');
    expect(codeOf(() => BY_ID.transform({ cursor: 'Yz' }))).toBe('invalid_cursor');
  });
});
