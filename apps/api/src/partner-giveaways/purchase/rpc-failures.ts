import { BaseError, ContractFunctionRevertedError, HttpRequestError, SocketClosedError, TimeoutError } from 'viem';

/**
 * The line between "the node could not be reached" (retry the same call: it is idempotent) and "the
 * node answered no" (a decision: do not retry). Only transport failures are retried.
 */
function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError) !==
    null
  );
}

/**
 * JSON-RPC errors a node answers when it cannot serve the call right now, not about the call itself:
 * limit exceeded / rate limited (-32005), resource unavailable (-32002), internal error (-32603).
 */
const BUSY_NODE_CODES = new Set([-32005, -32002, -32603]);

/** Whether the same call may succeed later: the node was unreachable, or busy (it answered "not now"). */
export function isRetryable(error: unknown): boolean {
  if (isTransportFailure(error)) return true;
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => BUSY_NODE_CODES.has((e as { code?: unknown }).code as number)) !== null;
}

/** Why a call reverted, named after the custom error when the ABI knows it; null if it did not revert. */
export function revertReason(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return null;
  if (reverted.data) {
    const args = (reverted.data.args ?? []).map(String).join(', ');
    return `${reverted.data.errorName}(${args})`;
  }
  return reverted.reason ?? reverted.signature ?? 'execution reverted';
}

/** The node's own words (e.g. "nonce too low"), without viem's context (URL, request body, docs links). */
export function nodeMessage(error: unknown): string {
  if (error instanceof BaseError) return (error.details || error.shortMessage).split('\n')[0];
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}

const ALREADY_KNOWN = /already known|already imported|known transaction|alreadyknown/i;

/** A refused `eth_sendRawTransaction` that means the node has our transaction already. */
export function isAlreadyKnown(error: unknown): boolean {
  return ALREADY_KNOWN.test(error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String(error));
}
