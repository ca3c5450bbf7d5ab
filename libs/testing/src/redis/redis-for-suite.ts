import Redis from 'ioredis';
import { redactUrl } from '../redact-url';
import { uniqueName } from '../unique-name';

export interface SuiteRedis {
  url: string;
  /** Every key the suite writes starts with this (e.g. ioredis `keyPrefix`, bullmq `prefix`). */
  prefix: string;
  /** A connected ioredis client whose keys are under the prefix; the caller disconnects it. */
  connect(): Promise<Redis>;
  /** Deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const SCAN_PAGE = 1_000;

/** The Redis of `REDIS_URL` with a key prefix of the suite's own, so suites sharing it never collide. */
export function redisForSuite(label = 'test'): SuiteRedis {
  const url = process.env['REDIS_URL'] || DEFAULT_REDIS_URL;
  const prefix = `${uniqueName(label)}:`;
  return {
    url,
    prefix,
    connect: () => connectOrExplain(url, prefix),
    cleanup: () => deleteKeysUnder(url, prefix),
  };
}

async function connectOrExplain(url: string, keyPrefix?: string): Promise<Redis> {
  // No retries: an unreachable Redis must fail the suite now with a clear message, not hang it.
  const client = new Redis(url, { keyPrefix, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // ioredis rejects connect() with a bare "Connection is closed"; the socket's own error says why.
  let socketError: unknown;
  client.on('error', (error) => (socketError = error));
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.disconnect();
    throw new Error(
      `Redis is not reachable at ${redactUrl(url)} (${String(socketError ?? error)}). The tests need a real Redis: start one ` +
        '(e.g. `apt-get install redis-server && redis-server --daemonize yes` or `docker run -p 6379:6379 redis:7`) ' +
        'or point REDIS_URL at one.',
    );
  }
}

async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  // Unprefixed client: ioredis does not apply keyPrefix to SCAN's MATCH pattern.
  const client = await connectOrExplain(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', SCAN_PAGE);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
