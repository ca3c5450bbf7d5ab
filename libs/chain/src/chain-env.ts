import { z } from 'zod';

/** How many blocks below the head a reorg may reach: the indexer's window, and what a reindex's rewind carries. */
export const DEFAULT_REORG_DEPTH = 128;

/**
 * Every append's checkpoint carries the window's block hashes (~100 bytes of JSON each): a deeper window
 * would outgrow the one record a Kafka checkpoint is (its topic's segments are 1 MiB), and every append
 * would then fail for good. 4,096 blocks are over two hours of Base's.
 */
export const MAX_REORG_DEPTH = 4_096;

/**
 * The chain variables the indexer and the ops commands both read, validated alike: a URL `ops reindex`
 * took that the indexer refuses would rewind a log no indexer could then follow.
 */
export const CHAIN_ENV_FIELDS = {
  // viem's HTTP transport: a ws:// URL (RPC_WS_URL's) or a bare host:port would be retried without end
  RPC_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be the http(s) JSON-RPC URL of a node, e.g. http://127.0.0.1:8545'),
  REORG_DEPTH: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_REORG_DEPTH, `at most ${MAX_REORG_DEPTH}: every append's checkpoint carries the window's block hashes`)
    .default(DEFAULT_REORG_DEPTH),
};
