import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Faults a JSON-RPC node shows in production, switchable while a test runs. */
export interface RpcFaults {
  /** Share of calls answered with an HTTP 500 (0..1). */
  failRate: number;
  /** eth_getLogs spanning more blocks than this is refused as providers do; 0 = no limit. */
  maxLogRange: number;
  /**
   * eth_getLogs answers of more logs than this are refused as geth and Infura refuse them ("query
   * returned more than N results"), even for one block; 0 = no limit.
   */
  maxLogsPerAnswer: number;
  /** eth_getBlockReceipts is answered [] (a node that pruned its receipts, or a gateway that lost them). */
  prunedReceipts: boolean;
  /** Share of calls delayed by `delayMs`. */
  delayRate: number;
  delayMs: number;
  /** Serve a head this many blocks old and pretend newer blocks do not exist (a lagging node). */
  lagBlocks: number;
  /** Report a head this many blocks ahead of the blocks served (the head from a replica ahead of the rest). */
  headAheadBlocks: number;
  /**
   * eth_call goes to a replica this many blocks behind: asked at a block it lacks it answers "header not
   * found" (as geth does), asked at `latest` it runs the call at its own head.
   */
  callLagBlocks: number;
  /**
   * eth_getLogs, and the rest of its JSON-RPC batch, go to a replica this many blocks behind: its logs
   * stop at its head (with no error, as a node answers for blocks it has not seen), its headers above
   * it are null, and of a block above it asked by hash it knows no logs ([], as besu and others answer
   * for a hash they do not know) and no header.
   */
  logsLagBlocks: number;
  /** Calls of these methods never get an answer (a hung socket). */
  hangMethods: string[];
  /** Calls of these methods are answered with a JSON-RPC error, as a node with a full transaction pool answers. */
  refuseMethods: string[];
  /**
   * Receipts of transactions in the newest this many blocks are answered null, as a replica behind a
   * load-balanced URL answers while another has already counted the transaction's nonce.
   */
  receiptLagBlocks: number;
  /** The next call of each method listed (once per entry) reaches the node, but its answer is lost (a reset). */
  loseAnswerOf: string[];
  /** Awaited before a call is forwarded: a test changes the chain there, between two of a client's calls. */
  beforeForward: ((call: RpcCall) => Promise<void>) | null;
  /**
   * eth_getLogs answers carry `"blockTimestamp"` as null (blocks of even number) or "0x0" (odd), as nodes
   * and gateways send the field they do not fill.
   */
  blankLogTimestamps: boolean;
  /**
   * Share of eth_getLogs answers (of two logs or more) with one log repeated and two neighbours swapped,
   * as some nodes have answered (erigon#16339: the same log twice).
   */
  garbledLogsRate: number;
}

/** A JSON-RPC call as the proxy receives it. */
export interface RpcCall {
  method: string;
  params?: unknown[];
}

export interface RpcFaultProxy {
  url: string;
  faults: RpcFaults;
  /** Calls seen per method, and how many were failed on purpose. */
  stats: {
    calls: Record<string, number>;
    injectedFailures: number;
    rangeRefusals: number;
    refusals: number;
    /** eth_calls at a block the lagging replica (callLagBlocks) did not have. */
    callsAboveReplica: number;
    /** eth_getLogs reaching above the lagging replica's head (logsLagBlocks), answered in part. */
    logsAboveReplica: number;
    /** eth_getLogs answers garbled (garbledLogsRate). */
    garbledLogAnswers: number;
  };
  close(): Promise<void>;
}

interface RpcRequest extends RpcCall {
  id: number | string | null;
}

/** Deterministic PRNG (mulberry32) so a failing run can be replayed with the same seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NONE: RpcFaults = {
  failRate: 0,
  maxLogRange: 0,
  maxLogsPerAnswer: 0,
  prunedReceipts: false,
  delayRate: 0,
  delayMs: 0,
  lagBlocks: 0,
  headAheadBlocks: 0,
  callLagBlocks: 0,
  logsLagBlocks: 0,
  hangMethods: [],
  refuseMethods: [],
  receiptLagBlocks: 0,
  loseAnswerOf: [],
  beforeForward: null,
  blankLogTimestamps: false,
  garbledLogsRate: 0,
};

/** An HTTP JSON-RPC proxy in front of a real node (anvil) that injects faults. */
export async function startRpcFaultProxy(
  upstream: string,
  faults: Partial<RpcFaults> = {},
  seed = 1,
): Promise<RpcFaultProxy> {
  const random = prng(seed);
  const state: RpcFaultProxy['faults'] = { ...NONE, ...faults };
  const stats: RpcFaultProxy['stats'] = {
    calls: {},
    injectedFailures: 0,
    rangeRefusals: 0,
    refusals: 0,
    callsAboveReplica: 0,
    logsAboveReplica: 0,
    garbledLogAnswers: 0,
  };

  const forward = async (req: RpcRequest): Promise<unknown> => {
    const res = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // the proxy's own calls too: a node refuses a request without the version ("Invalid request")
      body: JSON.stringify({ ...req, jsonrpc: '2.0' }),
    });
    return res.json();
  };

  const laggedHead = async (): Promise<number> => {
    const head = (await forward({ id: 0, method: 'eth_blockNumber' })) as { result: string };
    return Math.max(0, Number(head.result) - state.lagBlocks);
  };

  /** A call of a batch the replica `replicaHead` serves (logsLagBlocks). */
  const answerBehind = async (req: RpcRequest, replicaHead: number): Promise<unknown> => {
    const [first] = req.params ?? [];
    if (req.method === 'eth_getBlockByNumber' && Number(first) > replicaHead) {
      return { jsonrpc: '2.0', id: req.id, result: null };
    }
    const filter = (first ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
    const byHash = req.method === 'eth_getBlockByHash' ? (first as string) : filter.blockHash;
    if (byHash !== undefined && (req.method === 'eth_getLogs' || req.method === 'eth_getBlockByHash')) {
      const block = (await forward({ id: 0, method: 'eth_getBlockByHash', params: [byHash, false] })) as {
        result: { number: string } | null;
      };
      if (block.result && Number(block.result.number) > replicaHead) {
        stats.logsAboveReplica++;
        return { jsonrpc: '2.0', id: req.id, result: req.method === 'eth_getLogs' ? [] : null };
      }
    }
    if (req.method === 'eth_getLogs' && filter.toBlock !== undefined && Number(filter.toBlock) > replicaHead) {
      stats.logsAboveReplica++;
      if (filter.fromBlock !== undefined && Number(filter.fromBlock) > replicaHead) {
        return { jsonrpc: '2.0', id: req.id, result: [] };
      }
      return forward({ ...req, params: [{ ...filter, toBlock: `0x${replicaHead.toString(16)}` }] });
    }
    return answer(req);
  };

  const answer = async (req: RpcRequest): Promise<unknown> => {
    if (state.refuseMethods.includes(req.method)) {
      stats.refusals++;
      return { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'txpool is full' } };
    }
    if (state.lagBlocks > 0) {
      const head = await laggedHead();
      if (req.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: req.id, result: `0x${head.toString(16)}` };
      if (req.method === 'eth_getBlockByNumber') {
        const n = Number((req.params ?? [])[0]);
        if (n > head) return { jsonrpc: '2.0', id: req.id, result: null };
      }
    }
    if (req.method === 'eth_getLogs' && state.maxLogRange > 0) {
      const filter = ((req.params ?? [])[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      if (
        filter.fromBlock &&
        filter.toBlock &&
        Number(filter.toBlock) - Number(filter.fromBlock) + 1 > state.maxLogRange
      ) {
        stats.rangeRefusals++;
        return {
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32000, message: `exceed maximum block range: ${state.maxLogRange}` },
        };
      }
    }
    if (req.method === 'eth_call' && state.callLagBlocks > 0) {
      const head = (await forward({ id: 0, method: 'eth_blockNumber' })) as { result: string };
      const replicaHead = Number(head.result) - state.callLagBlocks;
      const [call, block] = req.params ?? [];
      if (block === undefined || block === 'latest') {
        return forward({ ...req, params: [call, `0x${replicaHead.toString(16)}`] });
      }
      if (typeof block === 'string' && Number(block) > replicaHead) {
        stats.callsAboveReplica++;
        return { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'header not found' } };
      }
    }
    if (req.method === 'eth_getBlockReceipts' && state.prunedReceipts)
      return { jsonrpc: '2.0', id: req.id, result: [] };
    await state.beforeForward?.(req);
    const answered = await forward(req);
    if (req.method === 'eth_blockNumber' && state.headAheadBlocks > 0) {
      const head = Number((answered as { result: string }).result) + state.headAheadBlocks;
      return { jsonrpc: '2.0', id: req.id, result: `0x${head.toString(16)}` };
    }
    const logs = (answered as { result?: object[] }).result;
    if (req.method === 'eth_getLogs' && Array.isArray(logs)) {
      if (state.maxLogsPerAnswer > 0 && logs.length > state.maxLogsPerAnswer) {
        stats.rangeRefusals++;
        return {
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32005, message: `query returned more than ${state.maxLogsPerAnswer} results` },
        };
      }
      // each fault on the answer the previous one left
      let result = logs;
      if (state.garbledLogsRate > 0 && logs.length >= 2 && random() < state.garbledLogsRate) {
        stats.garbledLogAnswers++;
        const at = Math.floor(random() * (logs.length - 1));
        const garbled = [...logs];
        [garbled[at], garbled[at + 1]] = [garbled[at + 1], garbled[at]];
        garbled.splice(Math.floor(random() * garbled.length), 0, logs[at]);
        result = garbled;
      }
      if (state.blankLogTimestamps) {
        const blank = (log: { blockNumber?: string }) => (Number(log.blockNumber) % 2 === 0 ? null : '0x0');
        result = result.map((log) => ({ ...log, blockTimestamp: blank(log) }));
      }
      return { ...(answered as object), result };
    }
    if (req.method === 'eth_getTransactionReceipt' && state.receiptLagBlocks > 0) {
      const receipt = (answered as { result?: { blockNumber: string } | null }).result;
      const head = (await forward({ id: 0, method: 'eth_blockNumber' })) as { result: string };
      if (receipt && Number(receipt.blockNumber) > Number(head.result) - state.receiptLagBlocks) {
        return { jsonrpc: '2.0', id: req.id, result: null };
      }
    }
    return answered;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
    const calls = Array.isArray(body) ? body : [body];
    for (const c of calls) stats.calls[c.method] = (stats.calls[c.method] ?? 0) + 1;
    if (calls.some((c) => state.hangMethods.includes(c.method))) return; // never answered
    if (random() < state.delayRate) await new Promise((r) => setTimeout(r, state.delayMs));
    if (random() < state.failRate) {
      stats.injectedFailures++;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('injected failure');
      return;
    }
    const behind =
      state.logsLagBlocks > 0 && calls.some((c) => c.method === 'eth_getLogs')
        ? Number(((await forward({ id: 0, method: 'eth_blockNumber' })) as { result: string }).result) -
          state.logsLagBlocks
        : null;
    const answers = await Promise.all(calls.map((c) => (behind === null ? answer(c) : answerBehind(c, behind))));
    const lost = calls.find((c) => state.loseAnswerOf.includes(c.method));
    if (lost) {
      state.loseAnswerOf.splice(state.loseAnswerOf.indexOf(lost.method), 1);
      res.destroy();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502).end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults: state,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
