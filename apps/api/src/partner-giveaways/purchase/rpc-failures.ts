import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  NonceTooLowError,
  SocketClosedError,
  TimeoutError,
} from 'viem';

/**
 * The line between "the node could not be reached" (retry the same call: it is idempotent) and "the
 * node answered no" (a decision: do not retry). Only transport failures are retried.
 */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError) !==
    null
  );
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

export type BroadcastRejection = 'already_known' | 'nonce_taken' | 'refused';

/** What a refused `eth_sendRawTransaction` means for the one transaction we signed. */
export function classifyBroadcastError(error: unknown): BroadcastRejection {
  const details = error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String(error);
  if (ALREADY_KNOWN.test(details)) return 'already_known';
  if (error instanceof BaseError && error.walk((e) => e instanceof NonceTooLowError) !== null) return 'nonce_taken';
  if (/nonce too low/i.test(details)) return 'nonce_taken';
  return 'refused';
}
