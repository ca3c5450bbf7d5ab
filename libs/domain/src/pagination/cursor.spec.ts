import fc from 'fast-check';
import { decodeCursor, encodeCursor, InvalidCursorError } from './cursor';

const keyParts = fc.array(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), { minLength: 1, maxLength: 3 });
const LIST = '/v1/rounds/5/tickets';
/** What a hand-made cursor of `text` (version, key parts and check) encodes to. */
const raw = (text: string) => Buffer.from(text).toString('base64url');
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('cursor codec', () => {
  it('round-trips every key and uses only A-Z a-z 0-9 _ -', () => {
    fc.assert(
      fc.property(keyParts, (parts) => {
        const cursor = encodeCursor(LIST, parts);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor, LIST, parts.length)).toEqual(parts);
      }),
    );
  });

  it('refuses random strings of the alphabet with an InvalidCursorError, never another error', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.integer({ min: 1, max: 3 }), (text, n) => {
        expect(() => decodeCursor(text, LIST, n)).toThrow(InvalidCursorError);
      }),
    );
  });

  it("accepts only the canonical encoding of a cursor's bytes: other last characters or a trailing one are refused", () => {
    let variantsTried = 0;
    fc.assert(
      fc.property(keyParts, (parts) => {
        const cursor = encodeCursor(LIST, parts);
        const bytes = Buffer.from(cursor, 'base64url');
        const variants = [...BASE64URL].flatMap((c) => [cursor.slice(0, -1) + c, cursor + c]);
        // Node's decoder gives these the cursor's own bytes (stray bits, a lone sixth-bit character)
        for (const variant of variants.filter((v) => v !== cursor && Buffer.from(v, 'base64url').equals(bytes))) {
          variantsTried++;
          expect(() => decodeCursor(variant, LIST, parts.length)).toThrow(/not canonical/);
        }
        expect(decodeCursor(cursor, LIST, parts.length)).toEqual(parts);
      }),
    );
    expect(variantsTried).toBeGreaterThan(0);
  });

  it('rejects any single-character change of a valid cursor', () => {
    fc.assert(
      fc.property(keyParts, fc.nat(), fc.constantFrom(...'AZaz09_-'.split('')), (parts, at, ch) => {
        const cursor = encodeCursor(LIST, parts);
        const i = at % cursor.length;
        fc.pre(cursor[i] !== ch);
        const tampered = cursor.slice(0, i) + ch + cursor.slice(i + 1);
        expect(() => decodeCursor(tampered, LIST, parts.length)).toThrow(InvalidCursorError);
      }),
    );
  });

  it("rejects another list's cursor, with the same key shape", () => {
    fc.assert(
      fc.property(
        keyParts,
        fc.constantFrom('/v1/rounds', '/v1/rounds/6/tickets', '/v1/rounds/50/tickets'),
        (parts, other) => {
          expect(() => decodeCursor(encodeCursor(other, parts), LIST, parts.length)).toThrow(
            /not a cursor of this list/,
          );
        },
      ),
    );
  });

  it('rejects a key edited by hand, its check left as it was', () => {
    const text = Buffer.from(encodeCursor(LIST, [129n]), 'base64url').toString('utf8');
    expect(text).toMatch(/^c2\.129\.\d+$/);
    expect(() => decodeCursor(raw(text.replace('129', '130')), LIST, 1)).toThrow(/not a cursor of this list/);
  });

  it.each([
    ['empty', ''],
    ['padding', `${encodeCursor(LIST, [5n])}=`],
    ['standard base64 characters', 'ab+/'],
    ['leading zero', raw('c2.05.1')],
    ['negative', raw('c2.-5.1')],
    ['the first version (no check)', raw('c1.5')],
    ['unknown version', raw('c3.5.1')],
    ['too many parts', encodeCursor(LIST, [1n, 2n])],
    ['over 78 digits', raw(`c2.${'9'.repeat(79)}.1`)],
  ])('rejects %s', (_label, cursor) => {
    expect(() => decodeCursor(cursor, LIST, 1)).toThrow(InvalidCursorError);
  });
});
