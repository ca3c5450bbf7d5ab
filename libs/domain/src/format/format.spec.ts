import fc from 'fast-check';
import { checksumAddress, isAddressShape, normalizeAddress } from './address';
import { toAmount } from './amount';
import { formatTimestamp, TIMESTAMP_PATTERN } from './timestamp';

describe('output formatting', () => {
  it('checksums addresses per EIP-55 whatever the input case', () => {
    const expected = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(checksumAddress(expected.toLowerCase())).toBe(expected);
    expect(checksumAddress(expected.toUpperCase().replace('0X', '0x'))).toBe(expected);
  });

  it('validates addresses by shape only and stores them lowercase', () => {
    expect(isAddressShape('0x' + 'A'.repeat(40))).toBe(true);
    expect(isAddressShape('0x' + 'g'.repeat(40))).toBe(false);
    expect(isAddressShape('0x' + 'a'.repeat(39))).toBe(false);
    expect(normalizeAddress('0xABCDEF0123456789ABCDEF0123456789ABCDEF01')).toBe(
      '0xabcdef0123456789abcdef0123456789abcdef01',
    );
    expect(() => normalizeAddress('nope')).toThrow(RangeError);
  });

  it('renders amounts as digits with decimals and refuses negatives', () => {
    expect(toAmount(2n ** 200n)).toEqual({ amount: (2n ** 200n).toString(), decimals: 6 });
    expect(toAmount('0', 18)).toEqual({ amount: '0', decimals: 18 });
    expect(() => toAmount(-1n)).toThrow(RangeError);
  });

  it('renders block seconds as ISO UTC with three millisecond digits', () => {
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(formatTimestamp(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(formatTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toMatch(TIMESTAMP_PATTERN);
  });

  it('writes every instant exactly as Date#toISOString does', () => {
    const edges = [
      -62_167_219_200_001, -62_167_219_200_000, -1, 0, 951_782_400_000, 253_402_300_799_999, 253_402_300_800_000,
    ];
    for (const ms of edges) expect(formatTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(formatTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(formatTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
    expect(() => formatTimestamp(new Date(NaN))).toThrow(RangeError);
    // seconds with a fraction of a millisecond: the Date of them, as before
    for (const seconds of [1.0005, -1.0005, 1_700_000_000.1234, -0.0004]) {
      expect(formatTimestamp(seconds)).toBe(new Date(seconds * 1000).toISOString());
    }
  });
});
