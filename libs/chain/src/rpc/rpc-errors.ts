/**
 * Providers say "your eth_getLogs range is too big" in many dialects. Classifying them lets the
 * backfill split the range instead of crashing or retrying the same doomed request forever.
 */
export type RpcFailure =
  | {
      kind: 'range-too-large';
      suggested?: { from: number; to: number };
      /** How many times over the client's cap the refused answer was, when its full size is known. */
      oversize?: number;
      /** The most blocks the provider takes in one eth_getLogs, when its refusal says so. */
      maxBlocks?: number;
      /** The most logs the provider returns in one answer, when its refusal says so. */
      maxLogs?: number;
    }
  | { kind: 'rate-limited' }
  | { kind: 'transient' };

/**
 * An eth_getLogs over several blocks that the node refused again and again with an error this code does
 * not know as a range refusal (a provider's new dialect): it is split like one, rather than asked for
 * the same range forever.
 */
export class RepeatedRangeRefusalError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what} refused again and again`, { cause });
    this.name = 'RepeatedRangeRefusalError';
  }
}

const RANGE_PATTERNS = [
  /query returned more than \d+ results/i,
  /response (body )?(is )?too large/i,
  /response size (exceeded|should not)/i,
  /range (is )?too (large|wide|big)/i,
  /up to an? [\d,.]+k? block range/i,
  /limited to an? [\d,.]+k? (block )?range/i,
  /range [\d,]+ exceeds limit/i,
  /exceeds max results/i,
  /range (limit )?exceeded/i,
  /exceed(s|ed)? (max(imum)? )?(block )?range/i,
  /too many (results|logs|blocks)/i,
  /ranges? over [\d,]+ blocks/i,
  /limit exceeded/i,
  /ResponseBodyTooLarge/i,
  /log response size exceeded/i,
];

/**
 * A provider's cap on the blocks of one eth_getLogs, as its refusal states it: "exceed maximum block
 * range: 2000", "up to a 2K block range" (Alchemy), "limited to a 10,000 range" (QuickNode), "ranges over
 * 10000 blocks are not supported" (dRPC). Remembered, the planner never asks past it again.
 */
const BLOCK_CAPS = [
  /max(?:imum)? (?:block )?range(?: is| of)?:? *([\d,]+)(k?)\b/i,
  /up to an? ([\d,.]+)(k?) block range/i,
  /limited to an? ([\d,.]+)(k?) (?:block )?range/i,
  /ranges? over ([\d,]+)() blocks/i,
];

/**
 * Alchemy's paid tiers offer a choice, not a cap: "up to a 2K block range and no limit on the response
 * size, or … a response size of 10K logs and no limit on the block range".
 */
const NO_RANGE_LIMIT = /no limit on the block range/i;

/** A provider's cap on the logs of one answer: "query returned more than 10000 results" (geth, Infura), reth's "exceeds max results 20000". */
const LOG_CAPS = [/more than ([\d,]+) results/i, /exceeds max results ([\d,]+)/i];

function logCapIn(text: string): number | undefined {
  for (const pattern of LOG_CAPS) {
    const logs = Number(pattern.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);
    if (Number.isSafeInteger(logs) && logs > 0) return logs;
  }
  return undefined;
}

function blockCapIn(text: string): number | undefined {
  if (NO_RANGE_LIMIT.test(text)) return undefined;
  for (const pattern of BLOCK_CAPS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const blocks = Number(m[1].replace(/,/g, '')) * (m[2] ? 1000 : 1);
    if (Number.isSafeInteger(blocks) && blocks > 0) return blocks;
  }
  return undefined;
}

/** Throttling, however it is coded: Infura, for one, sends -32005 "project ID request rate exceeded". */
const RATE_LIMIT = /rate.?limit|rate exceeded|request count exceeded|too many requests/i;

/**
 * e.g. "-32602: ... try with this block range [0x10, 0x20]" (Alchemy, Infura style hints), or
 * "query exceeds max results 20000, retry with the range 100-200" (reth).
 */
const SUGGESTION = /\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]|retry with the range (\d+)\s*-\s*(\d+)/i;

function describe(error: unknown): { text: string; code?: number; status?: number; oversize?: number } {
  const parts: string[] = [];
  let code: number | undefined;
  let status: number | undefined;
  let oversize: number | undefined;
  let e: unknown = error;
  for (let depth = 0; e && depth < 6; depth++) {
    const obj = e as {
      name?: string;
      message?: string;
      details?: string;
      code?: unknown;
      status?: unknown;
      size?: unknown;
      maxSize?: unknown;
      cause?: unknown;
    };
    parts.push(obj.name ?? '', obj.message ?? '', obj.details ?? '');
    if (typeof obj.code === 'number' && code === undefined) code = obj.code;
    if (typeof obj.status === 'number' && status === undefined) status = obj.status;
    // viem's ResponseBodyTooLargeError: `size` is the answer's Content-Length when the node sent one
    // (anvil does), else only what was read before giving up, just over `maxSize`.
    if (typeof obj.size === 'number' && typeof obj.maxSize === 'number' && obj.size > obj.maxSize && obj.maxSize > 0)
      oversize ??= obj.size / obj.maxSize;
    e = obj.cause;
  }
  return { text: parts.join(' | '), code, status, oversize };
}

/**
 * An eth_getLogs over several blocks that timed out: the node could not build the answer in time, and
 * the same range asked again would time out again, so it is split like a range refused as too large.
 */
export class SlowRangeError extends Error {
  constructor(from: number, to: number, cause: unknown) {
    super(`eth_getLogs ${from}-${to} timed out`, { cause });
    this.name = 'SlowRangeError';
  }
}

/** viem's TimeoutError (RPC_TIMEOUT_MS passed without an answer), possibly wrapped. */
export function isTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 6; depth++) {
    if ((e as { name?: unknown }).name === 'TimeoutError') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Refusals of an answer's size (its logs or its bytes), as opposed to its range of blocks or the caller's rate. */
const ANSWER_TOO_LARGE = [
  /more than [\d,]+ results/i,
  /exceeds max results/i,
  /too many (results|logs)/i,
  /response (body )?(is )?too large/i,
  /response size/i,
  /ResponseBodyTooLarge/i,
];

/**
 * An eth_getLogs refused for the size of its answer: what the node said of its cap on an answer's logs
 * (when it said it), or null for any other failure, a range refusal or a throttle that reads like one
 * ("limit exceeded", -32005) among them.
 */
export function answerTooLarge(error: unknown): { maxLogs?: number } | null {
  const failure = classifyRpcError(error);
  if (failure.kind !== 'range-too-large') return null;
  if (failure.maxLogs !== undefined) return { maxLogs: failure.maxLogs };
  return failure.oversize !== undefined || ANSWER_TOO_LARGE.some((p) => p.test(describe(error).text)) ? {} : null;
}

export function classifyRpcError(error: unknown): RpcFailure {
  if (error instanceof SlowRangeError || error instanceof RepeatedRangeRefusalError) return { kind: 'range-too-large' };
  const { text, code, status, oversize } = describe(error);
  if (status === 429 || code === 429 || RATE_LIMIT.test(text)) {
    if (!/too many (results|logs|blocks)/i.test(text)) return { kind: 'rate-limited' };
  }
  if (code === -32005 || RANGE_PATTERNS.some((p) => p.test(text)) || (code === -32602 && SUGGESTION.test(text))) {
    const m = SUGGESTION.exec(text);
    const maxBlocks = blockCapIn(text);
    const maxLogs = logCapIn(text);
    const cap = { ...(maxBlocks === undefined ? {} : { maxBlocks }), ...(maxLogs === undefined ? {} : { maxLogs }) };
    if (m)
      return { kind: 'range-too-large', suggested: { from: Number(m[1] ?? m[3]), to: Number(m[2] ?? m[4]) }, ...cap };
    return oversize === undefined ? { kind: 'range-too-large', ...cap } : { kind: 'range-too-large', oversize, ...cap };
  }
  return { kind: 'transient' };
}

const STATE_UNAVAILABLE = [
  /missing trie node/i,
  /header not found/i,
  /BlockOutOfRange/i,
  /historical state .*(not available|unavailable)/i,
  /state (is )?(not available|unavailable|pruned)/i,
  /state histories haven't been fully indexed/i,
  /required historical state/i,
  // reth: "state at block #N is pruned"; OpenEthereum-style nodes: "... running with state pruning"
  /state at block #?\d+ is pruned/i,
  /state pruning/i,
  // Erigon and others answer a call at a block whose state they dropped with no data at all; the
  // contract emitted the log being enriched at that block, so it had code there
  /returned no data \("0x"\)/i,
];

/** Whether the node answered with a JSON-RPC error (it has a code), rather than not answering at all. */
export function isNodeAnswer(error: unknown): boolean {
  return describe(error).code !== undefined;
}

/** A node that is not an archive node (or anvil past its in-memory window) cannot run calls at old blocks. */
export function isStateUnavailable(error: unknown): boolean {
  const { text } = describe(error);
  return STATE_UNAVAILABLE.some((p) => p.test(text));
}

/**
 * One line for a log or a stored error: viem's short message (whole: a revert's reason is on its second
 * line), then the HTTP status and the node's or the transport's own words, which its first line leaves out
 * ("HTTP request failed." says nothing of a refused connection or a pruned state).
 */
export function rpcErrorSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { shortMessage, details, status } = error as { shortMessage?: unknown; details?: unknown; status?: unknown };
  const head = (typeof shortMessage === 'string' ? shortMessage : error.message.split('\n')[0])
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[.:]\s*$/, '');
  const said = [typeof status === 'number' ? `HTTP ${status}` : '', typeof details === 'string' ? details : '']
    .filter((part) => part !== '')
    .join(' ')
    .replace(/\s*\n\s*/g, ' ');
  const summary = said === '' ? head : `${head}: ${said}`;
  // what the node said each time, which the refusal's own words ("refused again and again") leave out
  if (error instanceof RepeatedRangeRefusalError) return `${summary} (${rpcErrorSummary(error.cause)})`.slice(0, 300);
  return summary.slice(0, 300);
}

/** The longest a provider's Retry-After is waited for: longer, the next try asks again. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How long a throttled call's answer asks to wait (its `Retry-After`: seconds or an HTTP date), at most a
 * minute; undefined when it names none. viem keeps the response's headers on its HttpRequestError.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  for (let e = error, depth = 0; e && depth < 6; depth++) {
    const headers = (e as { headers?: unknown }).headers;
    const value = headers instanceof Headers ? headers.get('retry-after') : null;
    if (value !== null) {
      const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
      return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
