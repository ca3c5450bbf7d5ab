import type { GrantRecord } from '@lottery/persistence';
import { waitForGrantOutcome } from './grant-outcome';

const grant = (status: GrantRecord['status']): GrantRecord => ({
  id: 'g1',
  partnerId: 1,
  wallet: '0x00000000000000000000000000000000000000b1',
  status,
  txHash: status === 'succeeded' ? `0x${'a'.repeat(64)}` : null,
  rawTx: null,
  replacedTxHashes: [],
  txSignedAt: null,
  error: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
const noEvents = { onJobEnded: () => () => undefined };
const outage = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

describe('waitForGrantOutcome', () => {
  it('waits through ledger reads that fail, and returns the outcome read once the ledger answers', async () => {
    const reads = [outage, outage, () => Promise.resolve(grant('succeeded'))];
    const ledger = { grant: () => (reads.shift() ?? outage)() };
    await expect(waitForGrantOutcome(ledger, noEvents, 'g1', 5_000)).resolves.toMatchObject({ status: 'succeeded' });
  });

  it('returns the last grant it read, not the failure, when the ledger stops answering until the deadline', async () => {
    const reads = [() => Promise.resolve(grant('sent'))];
    const ledger = { grant: () => (reads.shift() ?? outage)() };
    await expect(waitForGrantOutcome(ledger, noEvents, 'g1', 1_500)).resolves.toMatchObject({ status: 'sent' });
  });

  it('returns null when the ledger never answered: the outcome is unknown', async () => {
    await expect(waitForGrantOutcome({ grant: outage }, noEvents, 'g1', 1_200)).resolves.toBeNull();
  });

  it('throws what is not an outage: a bug is not an unknown outcome', async () => {
    const bug = () => Promise.reject(new TypeError('cannot read properties of undefined'));
    await expect(waitForGrantOutcome({ grant: bug }, noEvents, 'g1', 1_200)).rejects.toThrow(TypeError);
  });
});
