import { hash } from 'node:crypto';

/** A strong validator of the exact bytes sent. One-shot `hash`: no Hash object per response. */
export function entityTag(payload: string | Buffer): string {
  return `"${hash('sha256', payload, 'base64url').slice(0, 32)}"`;
}

/** RFC 9110 §13.1.2: `*`, or a list of tags compared weakly (a `W/` prefix does not matter). */
export function ifNoneMatchMatches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}
