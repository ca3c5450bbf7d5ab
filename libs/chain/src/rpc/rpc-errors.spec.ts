import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  HttpRequestError,
} from 'viem';
import {
  answerTooLarge,
  classifyRpcError,
  isStateUnavailable,
  isTimeout,
  RepeatedRangeRefusalError,
  rpcErrorSummary,
  SlowRangeError,
} from './rpc-errors';

const rpc = (code: number, message: string) => Object.assign(new Error(message), { code });

describe('classifyRpcError', () => {
  it.each([
    ['infura -32005', rpc(-32005, 'query returned more than 10000 results')],
    [
      'alchemy hint',
      rpc(
        -32602,
        'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range. this block range should work: [0x10, 0x20]',
      ),
    ],
    ['generic range', new Error('block range is too wide')],
    [
      'viem response size',
      Object.assign(new Error('Response body is too large'), { name: 'ResponseBodyTooLargeError' }),
    ],
    [
      'nested cause',
      Object.assign(new Error('HTTP request failed'), { cause: rpc(-32000, 'exceed maximum block range: 2000') }),
    ],
    [
      'alchemy free tier',
      rpc(
        -32600,
        'Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [0x9, 0x12]',
      ),
    ],
    ['reth max results', rpc(-32602, 'query exceeds max results 20000, retry with the range 505-760')],
    ['infura range limit', rpc(-32602, 'range 12000 exceeds limit of 10000')],
    ['requested range', rpc(-32012, 'requested range too large')],
    ['quicknode', rpc(-32614, 'eth_getLogs is limited to a 10,000 range')],
  ])('%s is a range problem', (_l, err) => {
    expect(classifyRpcError(err).kind).toBe('range-too-large');
  });

  it.each([
    ['exceed maximum block range: 2000', 2_000],
    ['You can make eth_getLogs requests with up to a 500 block range.', 500],
    [
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the ' +
        'response size, or you can receive a response size of 10K logs and no limit on the block range.',
      undefined,
    ],
    ['eth_getLogs is limited to a 10,000 range', 10_000],
    ['ranges over 10000 blocks are not supported on freemium', 10_000],
    ['query returned more than 10000 results', undefined],
  ])('reads the provider\'s cap on a range\'s blocks from "%s"', (message, maxBlocks) => {
    const failure = classifyRpcError(rpc(-32000, message));
    expect(failure).toMatchObject({ kind: 'range-too-large' });
    expect(failure.kind === 'range-too-large' ? failure.maxBlocks : 'another kind').toBe(maxBlocks);
  });

  it('extracts the suggested range, in brackets or as "retry with the range a-b"', () => {
    const f = classifyRpcError(rpc(-32602, 'try with this block range [0x10, 0x20]'));
    expect(f).toEqual({ kind: 'range-too-large', suggested: { from: 16, to: 32 } });
    const reth = classifyRpcError(rpc(-32602, 'query exceeds max results 20000, retry with the range 505-760'));
    expect(reth).toEqual({ kind: 'range-too-large', suggested: { from: 505, to: 760 }, maxLogs: 20_000 });
  });

  it("reads a provider's cap on the logs of an answer", () => {
    expect(classifyRpcError(rpc(-32005, 'query returned more than 10,000 results'))).toEqual({
      kind: 'range-too-large',
      maxLogs: 10_000,
    });
  });

  it("says how many times over the cap a refused answer was, however viem's error is wrapped", () => {
    const tooLarge = (size: number) =>
      Object.assign(new Error('HTTP response body exceeded the size limit.'), {
        name: 'ResponseBodyTooLargeError',
        size,
        maxSize: 10_000_000,
      });
    expect(classifyRpcError(tooLarge(57_038_752))).toEqual({ kind: 'range-too-large', oversize: 5.7038752 });
    expect(classifyRpcError(Object.assign(new Error('failed'), { cause: tooLarge(20_000_000) }))).toEqual({
      kind: 'range-too-large',
      oversize: 2,
    });
    const noSize = Object.assign(new Error('Response body is too large'), { name: 'ResponseBodyTooLargeError' });
    expect(classifyRpcError(noSize)).toEqual({ kind: 'range-too-large' });
  });

  it('splits a range that timed out, and recognises a timeout however it is wrapped', () => {
    const timeout = Object.assign(new Error('The request took too long to respond.'), { name: 'TimeoutError' });
    expect(classifyRpcError(new SlowRangeError(1, 9, timeout)).kind).toBe('range-too-large');
    expect(classifyRpcError(timeout).kind).toBe('transient');
    expect(isTimeout(Object.assign(new Error('HTTP request failed'), { cause: timeout }))).toBe(true);
    expect(isTimeout(new Error('socket hang up'))).toBe(false);
  });

  it('recognises rate limits and treats the rest as transient', () => {
    expect(classifyRpcError(Object.assign(new Error('x'), { status: 429 })).kind).toBe('rate-limited');
    expect(classifyRpcError(new Error('Too Many Requests')).kind).toBe('rate-limited');
    expect(classifyRpcError(rpc(-32005, 'project ID request rate exceeded')).kind).toBe('rate-limited');
    expect(classifyRpcError(rpc(-32005, 'daily request count exceeded, request rate limited')).kind).toBe(
      'rate-limited',
    );
    expect(classifyRpcError(new Error('socket hang up')).kind).toBe('transient');
  });
});

describe('answerTooLarge', () => {
  it("tells an answer refused for its size, with the provider's cap on its logs when stated", () => {
    expect(answerTooLarge(rpc(-32005, 'query returned more than 10,000 results'))).toEqual({ maxLogs: 10_000 });
    expect(answerTooLarge(rpc(-32602, 'query exceeds max results 20000, retry with the range 5-9'))).toEqual({
      maxLogs: 20_000,
    });
    expect(answerTooLarge(rpc(-32000, 'log response size exceeded'))).toEqual({});
    const viemCap = Object.assign(new Error('Response body is too large'), { name: 'ResponseBodyTooLargeError' });
    expect(answerTooLarge(Object.assign(new Error('failed'), { cause: viemCap }))).toEqual({});
  });

  it('is null for a range refusal, a throttle that reads like one, and any other failure', () => {
    expect(answerTooLarge(rpc(-32000, 'exceed maximum block range: 2000'))).toBeNull();
    expect(answerTooLarge(rpc(-32005, 'limit exceeded'))).toBeNull();
    expect(answerTooLarge(rpc(-32005, 'project ID request rate exceeded'))).toBeNull();
    expect(answerTooLarge(new Error('socket hang up'))).toBeNull();
  });
});

describe('isStateUnavailable', () => {
  it.each([
    ['anvil past its window', rpc(-32602, 'BlockOutOfRangeError: block height is 6114 but requested was 13')],
    ['geth full node', rpc(-32000, 'missing trie node 3f2a (path ) state 0x... is not available')],
    ['erigon', rpc(-32000, 'header not found')],
    [
      'nested cause',
      Object.assign(new Error('call failed'), { cause: rpc(-32000, 'historical state abc is not available') }),
    ],
    ['reth full node', rpc(-32000, 'state at block #181 is pruned')],
    [
      'openethereum-style',
      rpc(-32000, 'This request is not supported because your node is running with state pruning'),
    ],
    [
      'a node answering no data',
      new ContractFunctionExecutionError(new ContractFunctionZeroDataError({ functionName: 'getDrawingState' }), {
        abi: [],
        functionName: 'getDrawingState',
      }),
    ],
  ])('%s means the state is gone', (_l, err) => {
    expect(isStateUnavailable(err)).toBe(true);
  });

  it('does not mistake a revert or a network failure for missing state', () => {
    expect(isStateUnavailable(rpc(3, 'execution reverted'))).toBe(false);
    expect(isStateUnavailable(new Error('socket hang up'))).toBe(false);
  });
});

describe('rpcErrorSummary', () => {
  it("keeps the HTTP status and the transport's or node's words that viem's first line leaves out", () => {
    const refused = new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' });
    expect(rpcErrorSummary(refused)).toBe('HTTP request failed: fetch failed');
    const failing = new HttpRequestError({ url: 'http://node', status: 500, details: '"injected failure"' });
    expect(rpcErrorSummary(failing)).toBe('HTTP request failed: HTTP 500 "injected failure"');
    expect(rpcErrorSummary(new Error('socket hang up\nmore'))).toBe('socket hang up');
  });

  it("keeps the node's words behind a range refused again and again (a batch refused reads the same)", () => {
    const refused = new RepeatedRangeRefusalError('eth_getLogs 1-1', rpc(-32600, 'batch requests are not supported'));
    expect(rpcErrorSummary(refused)).toBe('eth_getLogs 1-1 refused again and again (batch requests are not supported)');
  });

  it("keeps a revert's reason, which viem puts on the short message's second line", () => {
    const reverted = new ContractFunctionExecutionError(
      new ContractFunctionRevertedError({ abi: [], functionName: 'getDrawingState', message: 'DrawingNotFound' }),
      { abi: [], functionName: 'getDrawingState' },
    );
    expect(rpcErrorSummary(reverted)).toMatch(/reverted with the following reason: DrawingNotFound/);
  });
});
