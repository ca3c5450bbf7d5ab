import { copyText } from './copy-from-text';

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
});
