import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockByNumber, headOf } from '@lottery/pipeline-testing';

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
    const block = await blockByNumber<DumpedBlock>(rpcUrl, n);
    // anvil may not serve a block under its head (for a moment, or for good after some anvil_reorg): a gap
    const line = block
      ? { number: n, hash: block.hash, parentHash: block.parentHash, transactions: block.transactions }
      : { number: n, missing: true };
    lines.push(JSON.stringify(line));
  }
  writeFileSync(join(dir, 'chain.jsonl'), lines.join('\n'));
}
