import { z } from 'zod';

/** How many blocks below the head a reorg may reach: the indexer's window, and what a reindex's rewind carries. */
export const DEFAULT_REORG_DEPTH = 128;

/**
 * The chain variables the indexer and the ops commands both read, validated alike: a URL `ops reindex`
 * took that the indexer refuses would rewind a log no indexer could then follow.
 */
export const CHAIN_ENV_FIELDS = {
  // viem's HTTP transport: a ws:// URL (RPC_WS_URL's) or a bare host:port would be retried without end
  RPC_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be the http(s) JSON-RPC URL of a node, e.g. http://127.0.0.1:8545'),
  REORG_DEPTH: z.coerce.number().int().min(1).default(DEFAULT_REORG_DEPTH),
};
