import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headOf, rpcCall } from '@lottery/pipeline-testing';

interface DumpedBlock {
  number: string;
  hash: string;
  parentHash: string;
  transactions: string[];
}

/**
 * Writes the chain as anvil now holds it, blocks `fromBlock` to the head (number, hash, parent hash and
 * transaction hashes, one JSON line each), for the post-mortem of a failed run: set beside the event log,
 * it says whether the indexer missed a reorg or the node mined something twice. A block the node does
 * not serve is written as `{number, missing: true}`.
 */
export async function dumpChain(rpcUrl: string, fromBlock: number, dir: string): Promise<void> {
  const head = await headOf(rpcUrl);
  const lines: string[] = [];
  for (let n = fromBlock; n <= head; n++) {
    const block = (await rpcCall(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as DumpedBlock | null;
    // anvil reports a head before it serves every block under it: a gap in the dump, not a lost post-mortem
    if (!block) lines.push(JSON.stringify({ number: n, missing: true }));
    else {
      lines.push(
        JSON.stringify({
          number: n,
          hash: block.hash,
          parentHash: block.parentHash,
          transactions: block.transactions,
        }),
      );
    }
  }
  writeFileSync(join(dir, 'chain.jsonl'), lines.join('\n'));
}
