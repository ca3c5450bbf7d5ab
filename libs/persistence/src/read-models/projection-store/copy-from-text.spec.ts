import { copyTextChunks } from './copy-from-text';

const copyText = (rows: Parameters<typeof copyTextChunks>[0], chunkChars = 1 << 20) =>
  [...copyTextChunks(rows, chunkChars)].join('');

describe('COPY text encoding', () => {
  it('writes tab-separated rows with \\N for null, t/f booleans, ISO dates and array literals', () => {
    expect(copyText([[1, 'a', null, true, new Date(Date.UTC(2025, 0, 2)), [1, 2, 3], 10n ** 30n]])).toBe(
      '1\ta\t\\N\tt\t2025-01-02T00:00:00.000Z\t{1,2,3}\t1000000000000000000000000000000\n',
    );
  });

  it('escapes backslash, tab, newline and carriage return inside text', () => {
    expect(copyText([['{"a":"x\\\\y"}', 'tab\there', 'line\nbreak\r']])).toBe(
      '{"a":"x\\\\\\\\y"}\ttab\\there\tline\\nbreak\\r\n',
    );
  });

  it('hands the text out in pieces of whole lines, about the size asked, nothing lost or repeated', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => [i, `row ${i}`]);
    const pieces = [...copyTextChunks(rows, 100)];
    expect(pieces.length).toBeGreaterThan(50);
    for (const piece of pieces) {
      expect(piece.endsWith('\n')).toBe(true);
      expect(piece.length).toBeLessThan(100 + 20);
    }
    expect(pieces.join('')).toBe(rows.map(([i, text]) => `${i}\t${text}\n`).join(''));
    expect([...copyTextChunks([], 100)]).toEqual([]);
  });
});
