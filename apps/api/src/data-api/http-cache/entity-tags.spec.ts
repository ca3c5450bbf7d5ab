import { createHash } from 'node:crypto';
import { entityTag, ifNoneMatchMatches } from './entity-tags';

describe('entity tags', () => {
  const tag = entityTag('{"id":"1"}');

  it('are quoted, stable and content-addressed', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(entityTag('{"id":"1"}')).toBe(tag);
    expect(entityTag('{"id":"2"}')).not.toBe(tag);
  });

  it("are the first 32 base64url characters of the body bytes' SHA-256, string or buffer alike", () => {
    const body = '{"name":"Zoë"}';
    const digest = createHash('sha256').update(Buffer.from(body, 'utf8')).digest('base64url');
    expect(entityTag(body)).toBe(`"${digest.slice(0, 32)}"`);
    expect(entityTag(Buffer.from(body, 'utf8'))).toBe(entityTag(body));
  });

  it('match If-None-Match lists, weak tags and *', () => {
    expect(ifNoneMatchMatches(tag, tag)).toBe(true);
    expect(ifNoneMatchMatches(`"x", W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', tag)).toBe(true);
    expect(ifNoneMatchMatches('"x"', tag)).toBe(false);
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
  });
});
