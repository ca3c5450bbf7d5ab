import { AbortedError, NewHeads } from '@lottery/chain';
import { buyOrder, createSimulationContext, simulateHistory } from '@lottery/contracts';
import { startFollower, webSocketUrlOf } from '@lottery/pipeline-testing';
import { freePort } from '@lottery/telemetry';
import { startAnvil } from '@lottery/testing';
import {
  eventually,
  followerFor,
  headOf,
  readLogEnvelopes,
  rpcCall,
  startIndexerFixture,
  type IndexerFixture,
} from './support/indexer-fixture';

jest.setTimeout(120_000);

/** Far longer than any wait below: whatever happens sooner was woken by an announcement, not the poll. */
const POLL_MS = 60_000;

describe("the node's newHeads announcements (anvil over WebSocket)", () => {
  let f: IndexerFixture;
  let heads: NewHeads;
  const errors: Error[] = [];
  const never = new AbortController().signal;

  /** Mines a block on `rpcUrl` and waits for `on` to announce it (its subscription may still be starting). */
  const announced = (on: NewHeads, rpcUrl: string) =>
    eventually(async () => {
      const attempt = new AbortController();
      try {
        const heard = on.next(2_000, attempt.signal);
        await rpcCall(rpcUrl, 'anvil_mine', ['0x1']);
        return await heard;
      } finally {
        attempt.abort();
      }
    }, 'an announced block');

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_new_heads');
    heads = NewHeads.open(webSocketUrlOf(f.anvil.rpcUrl), (error) => errors.push(error));
    await announced(heads, f.anvil.rpcUrl);
  });

  afterAll(async () => {
    await heads?.close();
    await f?.dispose();
  });

  it('wake a waiter as soon as a block is mined', async () => {
    const woken = heads.next(POLL_MS, never);
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x1']);
    expect(await woken).toBe(true);
  });

  it('keep a block announced while nobody waited, for the next wait to return at once', async () => {
    await eventually(async () => {
      await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x1']);
      await new Promise((r) => setTimeout(r, 200)); // nobody waits while the announcement comes
      const attempt = new AbortController();
      try {
        // a kept announcement resolves before anything queued after the call
        const immediate = new Promise<false>((resolve) => setImmediate(() => resolve(false)));
        return await Promise.race([heads.next(POLL_MS, attempt.signal), immediate]);
      } finally {
        attempt.abort();
      }
    }, 'the kept announcement');
  });

  it('tell a wait that timed out from an announcement', async () => {
    expect(await heads.next(10, never)).toBe(false);
  });

  it('end a wait with AbortedError when its signal aborts', async () => {
    const controller = new AbortController();
    const waiting = heads.next(POLL_MS, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
  });

  it('let a follower polling once a minute append a purchase within seconds of it being mined', async () => {
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 3, rounds: 1, ticketsPerRound: 4 });
    const sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 4 });
    const follower = startFollower(followerFor(f, f.anvil.rpcUrl, { pollIntervalMs: POLL_MS, newHeads: heads }));
    try {
      const head = await headOf(f.anvil.rpcUrl);
      await eventually(async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head, 'the catch-up');
      const [ticket] = await buyOrder(sim, 1);
      const mined = Date.now();
      await eventually(
        async () =>
          (await readLogEnvelopes(f.eventLog)).some(
            (e) => e.type === 'TicketPurchased' && e.payload.userTicketId === ticket.ticketId.toString(),
          ),
        'the purchase in the log',
        POLL_MS / 2,
      );
      expect(Date.now() - mined).toBeLessThan(10_000);
    } finally {
      await follower.stop();
    }
    expect(errors).toEqual([]);
  });

  it('subscribe again after the node went away and came back on the same address', async () => {
    const port = await freePort();
    let node = await startAnvil({ port });
    const lost: Error[] = [];
    const restarted = NewHeads.open(`ws://127.0.0.1:${port}`, (error) => lost.push(error), { reopenMs: 200 });
    try {
      await announced(restarted, node.rpcUrl);
      await node.stop();
      await eventually(async () => lost.length > 0, 'the lost socket reported');
      node = await startAnvil({ port });
      await announced(restarted, node.rpcUrl);
    } finally {
      await restarted.close();
      await node.stop();
    }
  });
});
