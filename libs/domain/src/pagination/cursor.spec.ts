import fc from 'fast-check';
import { decodeCursor, encodeCursor, InvalidCursorError } from './cursor';

const keyParts = fc.array(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), { minLength: 1, maxLength: 3 });

describe('cursor codec', () => {
  it('round-trips every key and uses only A-Z a-z 0-9 _ -', () => {
    fc.assert(
      fc.property(keyParts, (parts) => {
        const cursor = encodeCursor(parts);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor, parts.length)).toEqual(parts);
      }),
    );
  });

  it('accepts a string only if encoding what it decodes to gives the same string back', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.integer({ min: 1, max: 3 }), (text, n) => {
        let decoded: bigint[] | undefined;
        try {
          decoded = decodeCursor(text, n);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidCursorError);
          return;
        }
        expect(encodeCursor(decoded)).toBe(text);
      }),
    );
  });

  it('rejects any single-character change of a valid cursor', () => {
    fc.assert(
      fc.property(keyParts, fc.nat(), fc.constantFrom(...'AZaz09_-'.split('')), (parts, at, ch) => {
        const cursor = encodeCursor(parts);
        const i = at % cursor.length;
        fc.pre(cursor[i] !== ch);
        const tampered = cursor.slice(0, i) + ch + cursor.slice(i + 1);
        let decoded: bigint[] | undefined;
        try {
          decoded = decodeCursor(tampered, parts.length);
        } catch {
          return;
        }
        // A change that still decodes must name a different key: it can never alias the original.
        expect(decoded).not.toEqual(parts);
      }),
    );
  });

  it.each([
    ['empty', ''],
    ['padding', `${encodeCursor([5n])}=`],
    ['standard base64 characters', 'ab+/'],
    ['leading zero', Buffer.from('c1.05').toString('base64url')],
    ['negative', Buffer.from('c1.-5').toString('base64url')],
    ['unknown version', Buffer.from('c2.5').toString('base64url')],
    ['too many parts', encodeCursor([1n, 2n])],
    ['over 78 digits', Buffer.from(`c1.${'9'.repeat(79)}`).toString('base64url')],
  ])('rejects %s', (_label, cursor) => {
    expect(() => decodeCursor(cursor, 1)).toThrow(InvalidCursorError);
  });
});
