import type { SeededRandom } from '@lottery/contracts';

/** A transaction of a block about to be replaced, as the plan needs it. */
export interface ReplacedTx {
  hash: string;
  from: string;
  /** The jackpot's draw calls: runJackpot locks the round, settleDrawing settles it and opens the next. */
  draw: 'run' | 'settle' | null;
  /** Index of its block among the replaced ones (0 = the oldest). */
  block: number;
}

export interface ReorgPlan {
  /** The transactions mined again, in their new order, each with its block among the new ones. */
  reincluded: { tx: ReplacedTx; block: number }[];
  dropped: ReplacedTx[];
  /** The kept transactions are not in their old order or not in their old blocks. */
  reshuffled: boolean;
}

/**
 * What a reorg of `depth` blocks does with their transactions: all mined again as they were, in another
 * order, some dropped, or all that may be dropped. anvil_reorg numbers each sender's transactions anew
 * from the common ancestor, so a dropped transaction takes its sender's later ones with it and a sender's
 * transactions keep their order; then a kept transaction keeps its nonce and so its hash. Two more rules
 * keep the simulator going: the senders in `protectedSenders` (the head block's, whose receipt the
 * simulator may not have read yet, and those with a transaction waiting in the pool, whose nonce must
 * stay valid) lose nothing; and a round's runJackpot and its settleDrawing stay or go together, in that
 * order, or the round would stay locked for good (the simulator only runs the open round).
 */
export function planReorg(
  txs: readonly ReplacedTx[],
  depth: number,
  protectedSenders: ReadonlySet<string>,
  random: SeededRandom,
): ReorgPlan {
  const dropRate = random.pick([0, 0, 0.3, 1]);
  const reshuffle = random.chance(0.5);
  const dropped = new Set<ReplacedTx>();
  for (const tx of random.sample(txs, txs.length)) {
    if (dropped.has(tx) || !random.chance(dropRate)) continue;
    const gone = dropClosure(txs, tx);
    if (!gone || [...gone].some((t) => protectedSenders.has(t.from))) continue;
    for (const t of gone) dropped.add(t);
  }
  const kept = txs.filter((tx) => !dropped.has(tx));
  if (!reshuffle) {
    return { reincluded: kept.map((tx) => ({ tx, block: tx.block })), dropped: [...dropped], reshuffled: false };
  }
  const order = randomInterleaving(kept, random);
  // random new blocks, non-decreasing along the new order (anvil mines each block's list in the order given)
  const blocks = order.map(() => random.int(0, depth - 1)).sort((a, b) => a - b);
  const reincluded = order.map((tx, i) => ({ tx, block: blocks[i] as number }));
  return {
    reincluded,
    dropped: [...dropped],
    reshuffled: reincluded.some(({ tx, block }, i) => tx !== kept[i] || block !== tx.block),
  };
}

/**
 * `tx`, its sender's later transactions, and its round's other draw call, until nothing more follows;
 * null when that would drop a settlement whose runJackpot stays (mined before the replaced blocks).
 */
function dropClosure(txs: readonly ReplacedTx[], tx: ReplacedTx): Set<ReplacedTx> | null {
  const gone = new Set<ReplacedTx>();
  const pending = [tx];
  while (pending.length > 0) {
    const t = pending.pop() as ReplacedTx;
    if (gone.has(t)) continue;
    gone.add(t);
    const at = txs.indexOf(t);
    pending.push(...txs.slice(at + 1).filter((later) => later.from === t.from));
    const partner = drawPartner(txs, at);
    if (partner) pending.push(partner);
    else if (t.draw === 'settle') return null;
  }
  return gone;
}

/** The settleDrawing after a runJackpot, or the runJackpot before a settleDrawing, if it is in the list. */
function drawPartner(txs: readonly ReplacedTx[], at: number): ReplacedTx | undefined {
  const t = txs[at] as ReplacedTx;
  if (t.draw === 'run') {
    const next = txs.slice(at + 1).find((x) => x.draw !== null);
    return next?.draw === 'settle' ? next : undefined;
  }
  if (t.draw === 'settle') {
    const previous = txs.slice(0, at).findLast((x) => x.draw !== null);
    return previous?.draw === 'run' ? previous : undefined;
  }
  return undefined;
}

/**
 * A random order of `txs` that keeps each sender's order and every settleDrawing after the runJackpot
 * before it: each step takes a random transaction among those whose predecessors are all placed.
 */
function randomInterleaving(txs: readonly ReplacedTx[], random: SeededRandom): ReplacedTx[] {
  const placed = new Set<ReplacedTx>();
  const order: ReplacedTx[] = [];
  const ready = (tx: ReplacedTx, at: number): boolean =>
    !placed.has(tx) &&
    txs.slice(0, at).every((earlier) => placed.has(earlier) || (earlier.from !== tx.from && !drawOrdered(earlier, tx)));
  while (order.length < txs.length) {
    const next = random.pick(txs.filter(ready));
    placed.add(next);
    order.push(next);
  }
  return order;
}

/** Draw calls keep their relative order (a settlement before its runJackpot reverts). */
const drawOrdered = (earlier: ReplacedTx, later: ReplacedTx): boolean => earlier.draw !== null && later.draw !== null;
