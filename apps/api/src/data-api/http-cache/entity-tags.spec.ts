import { entityTag, ifNoneMatchMatches } from './entity-tags';

describe('entity tags', () => {
  const tag = entityTag('{"id":"1"}');

  it('are quoted, stable and content-addressed', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(entityTag('{"id":"1"}')).toBe(tag);
    expect(entityTag('{"id":"2"}')).not.toBe(tag);
  });

  it('match If-None-Match lists, weak tags and *', () => {
    expect(ifNoneMatchMatches(tag, tag)).toBe(true);
    expect(ifNoneMatchMatches(`"x", W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', tag)).toBe(true);
    expect(ifNoneMatchMatches('"x"', tag)).toBe(false);
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
  });
});
