import {
  CallExecutionError,
  ContractFunctionExecutionError,
  HttpRequestError,
  InternalRpcError,
  InvalidInputRpcError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  RpcRequestError,
} from 'viem';
import { isRetryable } from './rpc-failures';

/** A JSON-RPC error as viem surfaces it from a contract simulation: wrapped twice. */
const fromSimulation = (cause: Error) =>
  new ContractFunctionExecutionError(new CallExecutionError(cause as never, {}), {
    abi: [],
    functionName: 'buyTickets',
  });
const answered = (code: number, message: string) =>
  new RpcRequestError({ body: {}, url: 'http://node', error: { code, message } });

describe('isRetryable', () => {
  it('retries an unreachable node and a busy one, however deeply viem wraps the error', () => {
    expect(isRetryable(new HttpRequestError({ url: 'http://node', status: 429 }))).toBe(true);
    for (const busy of [
      new LimitExceededRpcError(answered(-32005, 'rate limited')),
      new ResourceUnavailableRpcError(answered(-32002, 'resource unavailable')),
      new InternalRpcError(answered(-32603, 'header not found')),
    ]) {
      expect(isRetryable(busy)).toBe(true);
      expect(isRetryable(fromSimulation(busy))).toBe(true);
    }
  });

  it('takes any other answer as the node’s verdict', () => {
    const refusal = new InvalidInputRpcError(answered(-32000, 'insufficient funds for gas * price + value'));
    expect(isRetryable(refusal)).toBe(false);
    expect(isRetryable(fromSimulation(refusal))).toBe(false);
    expect(isRetryable(new Error('not a viem error'))).toBe(false);
  });
});
