import { encodeCursor } from '@lottery/domain';
import { AddressPipe } from './address.pipe';
import { PAGE_QUERY } from './page-query.pipe';
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
  it('parse round ids as digits of any size, 400 otherwise', () => {
    const pipe = new RoundIdPipe();
    expect(pipe.transform('0042')).toBe(42n);
    expect(codeOf(() => pipe.transform('4e2'))).toBe('invalid_request');
    expect(codeOf(() => pipe.transform(''))).toBe('invalid_request');
    expect(pipe.transform(String(2n ** 256n))).toBe(2n ** 256n);
  });

  it('accept addresses in any case and store them lowercase', () => {
    const pipe = new AddressPipe();
    expect(pipe.transform('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    );
    expect(codeOf(() => pipe.transform('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae'))).toBe('invalid_address');
  });

  it('default limit to 50 and clamp it to 1..100', () => {
    expect(PAGE_QUERY.transform({})).toEqual({ limit: 50, cursor: null });
    expect(PAGE_QUERY.transform({ limit: '100' }).limit).toBe(100);
    expect(PAGE_QUERY.transform({ limit: '101' }).limit).toBe(100);
    expect(PAGE_QUERY.transform({ limit: '0' }).limit).toBe(1);
    expect(PAGE_QUERY.transform({ limit: '-3' }).limit).toBe(1);
    expect(codeOf(() => PAGE_QUERY.transform({ limit: '2.0' }))).toBe('invalid_request');
    expect(codeOf(() => PAGE_QUERY.transform({ limit: ['1', '2'] }))).toBe('invalid_request');
    expect(() => PAGE_QUERY.transform({ limit: ['1', '2'] })).toThrow('limit must be given at most once');
  });

  it('take the cursor as given once, for its list to check', () => {
    const cursor = encodeCursor('/v1/rounds', [7n]);
    expect(PAGE_QUERY.transform({ cursor }).cursor).toBe(cursor);
    expect(codeOf(() => PAGE_QUERY.transform({ cursor: [cursor, cursor] }))).toBe('invalid_request');
  });
});
