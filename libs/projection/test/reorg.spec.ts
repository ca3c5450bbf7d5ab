import { blocksReverted, canonicalEvents, type ChainEventEnvelope } from '@lottery/domain';
import { Projection } from '../src';
import { lotteryHistory, expectSameReadModels, referenceFold, logWithReorg, must } from '@lottery/fold-testing';
import { dumpSchema } from '@lottery/testing';
import { asLog, CHAIN_ID, feed, projectionSuite, startAfresh } from './support/projection-harness';

const history = lotteryHistory({ seed: 11, settledRounds: 4, purchasesPerRound: 50, wallets: 10 });
const blocks = [...new Set(history.map((e) => e.blockNumber))];
const blockOf = (type: ChainEventEnvelope['type'], nth = 0) => history.filter((e) => e.type === type)[nth].blockNumber;

describe('BlocksReverted undoes the reverted blocks: the result equals the fold of the canonical history', () => {
  const h = projectionSuite('projection_reorg');

  const cases: [string, number, number][] = [
    ['depth 1 mid-round', blocks[Math.floor(blocks.length / 3)], 1],
    ['depth 3 mid-round', blocks[Math.floor(blocks.length / 2)], 3],
    ['depth 10 mid-round', blocks[Math.floor((blocks.length * 2) / 3)], 10],
    ['depth 3 over a settlement (undraw, unsettle, un-open the next round)', blockOf('JackpotSettled', 1) - 1, 3],
    ['depth 10 over claims and a pool winner', blockOf('PoolWinnerSelected', 1), 10],
    ['depth 1 at the very first block', blocks[0], 1],
  ];
  it.each(cases)('%s', async (_name, fromBlock, depth) => {
    const log = logWithReorg(history, fromBlock, depth);
    expect(canonicalEvents(log)).toEqual(history);
    await feed(h.projection, asLog(log), fromBlock, 120);
    await expectSameReadModels(h.queries, referenceFold(history));
    // every row, those no API answer shows included (a stray wallet, a pool round): as a fold of the
    // canonical history alone leaves them (the cursor's position differs: the log had more records)
    const ignored = ['read_model_migrations', 'projector_state'];
    const undone = await dumpSchema(h.dataSource, 'lottery', ignored);
    await startAfresh(h);
    await h.projection.applyBatch(asLog(history));
    expect(await dumpSchema(h.dataSource, 'lottery', ignored)).toBe(undone);
  });

  it('a reindex that re-appends blocks a reorg then reverts folds the same however the log is batched', async () => {
    const fromBlock = blocks[blocks.length - 3];
    const log = logWithReorg(history, fromBlock, 2);
    const revert = log.findIndex((e) => e.type === 'BlocksReverted');
    // the indexer read the orphaned blocks again (a reindex, a restart) before it met the reorg
    const orphaned = log.slice(0, revert).filter((e) => e.blockNumber >= fromBlock);
    const reindexed = [...log.slice(0, revert), ...orphaned, ...log.slice(revert)];
    expect(canonicalEvents(reindexed)).toEqual(history);
    // the re-append, the revert and the canonical blocks in one batch (what a replay reads)
    await h.projection.applyBatch(asLog(reindexed.slice(0, revert)));
    await h.projection.applyBatch(asLog(reindexed.slice(revert), revert + 1));
    await expectSameReadModels(h.queries, referenceFold(history));
    for (const seed of [1, 2, 3]) {
      await startAfresh(h);
      await feed(h.projection, asLog(reindexed), seed, 60);
      await expectSameReadModels(h.queries, referenceFold(history));
    }
  });

  it('undoing a re-selected pool winner brings the earlier selection back', async () => {
    const selections = history.filter((e) => e.type === 'PoolWinnerSelected');
    const second = must(
      selections.find((e, i) => i > 0 && e.payload.drawingId === selections[i - 1].payload.drawingId),
      'a round with two pool winner selections',
    );
    const log = [
      ...history.filter((e) => e.blockNumber <= second.blockNumber),
      blocksReverted(CHAIN_ID, second.blockNumber, [second.blockHash]),
    ];
    await feed(h.projection, asLog(log), 9, 120);
    const expected = referenceFold(canonicalEvents(log));
    await expectSameReadModels(h.queries, expected);
    // the winner is the earlier selection again (not just any winner the comparison above agreed on)
    const first = selections[selections.indexOf(second) - 1];
    const restored = await h.queries.poolRound(BigInt(second.payload.drawingId));
    expect(restored?.winner).toMatchObject({ id: Number(first.payload.entryId), address: first.payload.winner });
  });

  it('undoing a second lock of a reopened round leaves the first lock, as a fold without it does', async () => {
    // the Jackpot can unlock a locked round and lock it again: two JackpotLocked of one drawing
    const lock = history.find((e) => e.type === 'JackpotLocked') as Extract<
      ChainEventEnvelope,
      { type: 'JackpotLocked' }
    >;
    // relocked in the first empty block after the lock; the history up to it, then the relock
    let relockBlock = lock.blockNumber + 1;
    while (blocks.includes(relockBlock)) relockBlock++;
    const upTo = history.filter((e) => e.blockNumber < relockBlock);
    const relock = {
      ...lock,
      id: 'relock',
      blockNumber: relockBlock,
      blockHash: `0x${relockBlock.toString(16).padStart(64, 'f')}`,
      logIndex: 0,
    } as ChainEventEnvelope;
    const ignored = ['read_model_migrations', 'projector_state'];
    const lockedBlock = async () =>
      (
        (await h.dataSource.query(`SELECT locked_block FROM lottery.rounds WHERE id = $1`, [
          lock.payload.drawingId,
        ])) as {
          locked_block: string;
        }[]
      )[0].locked_block;

    await h.projection.applyBatch(asLog(upTo));
    const clean = await dumpSchema(h.dataSource, 'lottery', ignored);
    expect(await lockedBlock()).toBe(String(lock.blockNumber));

    await startAfresh(h);
    await h.projection.applyBatch(asLog([...upTo, relock]));
    expect(await lockedBlock()).toBe(String(lock.blockNumber));
    const reverted = blocksReverted(CHAIN_ID, relockBlock, [relock.blockHash]);
    await h.projection.applyBatch(asLog([reverted], upTo.length + 2));
    expect(await dumpSchema(h.dataSource, 'lottery', ignored)).toBe(clean);
  });

  it("a wallet's zero referral fee makes no row, whether a later fee of it was folded and undone or never came", async () => {
    const fee = must(
      history.find((e): e is ChainEventEnvelope<'ReferralFeeCollected'> => e.type === 'ReferralFeeCollected'),
      'a referral fee',
    );
    const last = history[history.length - 1];
    const referrer = `0x${'9'.repeat(40)}` as const;
    const feeOf = (amount: string, block: number): ChainEventEnvelope => ({
      ...fee,
      id: `fee:${block}`,
      blockNumber: block,
      blockHash: `0x${block.toString(16).padStart(64, '0')}`,
      logIndex: 0,
      payload: { ...fee.payload, referrer, amount },
    });
    const zero = feeOf('0', last.blockNumber + 1);
    const undone = feeOf('5', last.blockNumber + 2);
    const rowsOf = async () =>
      (
        await h.dataSource.query(`SELECT count(*)::int AS n FROM lottery.wallet_stats WHERE address = $1`, [referrer])
      )[0].n;
    await feed(h.projection, asLog([...history, zero]), 3, 120);
    const canonical = await rowsOf();
    await startAfresh(h);
    await feed(
      h.projection,
      asLog([...history, zero, undone, blocksReverted(CHAIN_ID, undone.blockNumber, [undone.blockHash])]),
      3,
      120,
    );
    expect([canonical, await rowsOf()]).toEqual([0, 0]);
  });

  it('a revert followed by many replacement blocks in the same batch still finds the reverted events', async () => {
    // a small window: the replacement blocks after the revert reach far beyond it within one batch
    const narrow = new Projection(h.dataSource, { chainId: CHAIN_ID, reorgWindowBlocks: 5 });
    const log = asLog(logWithReorg(history, blocks[Math.floor(blocks.length / 2)], 3));
    await narrow.applyBatch(log);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it('a revert below the reorg window stops with an error instead of undoing half of it', async () => {
    const narrow = new Projection(h.dataSource, { chainId: CHAIN_ID, reorgWindowBlocks: 5 });
    await narrow.applyBatch(asLog(history));
    const fromBlock = blocks[Math.floor(blocks.length / 2)];
    const revert = { position: history.length + 1, event: blocksReverted(CHAIN_ID, fromBlock, []) };
    await expect(narrow.applyBatch([revert])).rejects.toThrow(/reaches below the reorg window/);
    expect((await narrow.cursor()).position).toBe(history.length);
  });

  it('a revert redelivered at its position after its replacement blocks is skipped', async () => {
    const log = asLog(logWithReorg(history, blocks[Math.floor(blocks.length / 2)], 3));
    const revert = must(
      log.find((r) => r.event.type === 'BlocksReverted'),
      'a revert',
    );
    await feed(h.projection, log, 5, 200);
    await h.projection.applyBatch([revert]);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it('a revert re-appended after its replacement blocks undoes them, as the canonical view of the log says', async () => {
    const log = logWithReorg(history, blocks[Math.floor(blocks.length / 2)], 3);
    const revert = must(
      log.find((e) => e.type === 'BlocksReverted'),
      'a revert',
    );
    await feed(h.projection, asLog([...log, revert]), 6, 200);
    await expectSameReadModels(h.queries, referenceFold(canonicalEvents([...log, revert])));
  });
});
