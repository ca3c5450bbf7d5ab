import { Client } from 'pg';
import { lotteryHistory } from '@lottery/fold-testing';
import { isDependencyUnavailable } from '@lottery/telemetry';
import { MemoryLog } from './support/memory-log';
import { projectionSuite } from './support/projection-harness';

const history = lotteryHistory({ seed: 8, settledRounds: 2, purchasesPerRound: 3000, wallets: 40 });

describe('a batch whose connection the server ends', () => {
  const h = projectionSuite('projection_connection_loss');

  it("fails with the server's reason, an outage the projector waits out, also between two statements", async () => {
    const log = new MemoryLog();
    log.append(history);
    // the server ends the batch's session while it sits between two statements (the fold's own work):
    // no statement is in flight to receive the reason, the next one finds its connection released
    const admin = new Client({ connectionString: h.db.url });
    await admin.connect();
    let terminated = false;
    let folding = true;
    const terminator = (async () => {
      while (folding && !terminated) {
        const { rows } = await admin.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'
              AND state_change < clock_timestamp() - interval '30 milliseconds'`,
        );
        terminated = rows.some((r) => r.ended);
      }
    })();
    try {
      const failure = await h.projection.applyBatch(await log.read(1, history.length)).catch((e: unknown) => e);
      folding = false;
      await terminator;
      expect(terminated).toBe(true);
      expect(failure).toBeInstanceOf(Error);
      expect([(failure as Error).message, isDependencyUnavailable(failure)]).toEqual([
        expect.stringMatching(/terminating connection due to administrator command|Connection terminated|ECONNRESET/),
        true,
      ]);
    } finally {
      folding = false;
      await terminator;
      await admin.end();
    }
    // nothing of the batch was committed, and the next attempt folds it whole
    expect((await h.projection.cursor()).position).toBeNull();
    h.projection.resumingFrom(null);
    expect((await h.projection.applyBatch(await log.read(1, history.length))).position).toBe(history.length);
  });
});
