import { randomBytes } from 'node:crypto';

/**
 * A name no other suite, worker or parallel run uses: suites share one Postgres server, one Redis and
 * one broker, so isolation comes from names. Lowercase [a-z0-9_] so it is a valid unquoted SQL
 * identifier, Redis key part and Kafka topic part.
 */
export function uniqueName(label = 'test', maxLength = 63): string {
  const safeLabel = label.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return `${safeLabel.slice(0, maxLength - suffix.length - 1)}_${suffix}`;
}
