/** One raw JSON-RPC call (anvil_mine, evm_snapshot, …): tests drive the node beyond what viem wraps. */
export async function rpcCall(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The node's WebSocket endpoint: anvil answers WebSocket on its HTTP port. */
export function webSocketUrlOf(rpcUrl: string): string {
  return rpcUrl.replace(/^http/, 'ws');
}

export async function headOf(rpcUrl: string): Promise<number> {
  return Number(await rpcCall(rpcUrl, 'eth_blockNumber'));
}

/** eth_getBlockByNumber as the node answers it (`B`: the fields the caller reads), null where it serves none. */
export async function blockByNumber<B>(rpcUrl: string, n: number, fullTransactions = false): Promise<B | null> {
  return (await rpcCall(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, fullTransactions])) as B | null;
}
