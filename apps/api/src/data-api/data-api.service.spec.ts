import { decodeCursor, encodeCursor, type Hex } from '@lottery/domain';
import type { ReadModelQueries, TicketRecord } from '@lottery/persistence';
import { round, ticket } from '../../test/support/lottery-fixtures';
import { ApiError } from '../http/api-error';
import type { SerializedJson } from '../http/serialized-json';
import { NoReadModels } from '../openapi/no-read-models';
import { DataApiService } from './data-api.service';
import { Cacheable } from './http-cache/cacheable';

const WALLET: Hex = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';

const win = (id: bigint, amount: bigint): TicketRecord =>
  ticket({ id, roundId: 1n, wallet: WALLET, matchedNormals: 2, bonusballMatch: true, winningsAmount: amount });

/** The read-model contract with only the queries a test expects; any other query fails it. */
function stubReadModels(overrides: Partial<ReadModelQueries>): jest.Mocked<ReadModelQueries> {
  const stub: ReadModelQueries = Object.assign(new NoReadModels(), overrides);
  for (const name of Object.keys(stub) as (keyof ReadModelQueries)[]) jest.spyOn(stub, name);
  return stub as jest.Mocked<ReadModelQueries>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a response body, checked field by field below
const parsed = (body: SerializedJson): any => JSON.parse(body.text);

describe('DataApiService', () => {
  it('asks for one row more than the page to know whether another page exists', async () => {
    const readModels = stubReadModels({
      listRounds: async () => [round({ id: 9n }), round({ id: 8n }), round({ id: 7n })],
    });
    const page = parsed(
      await new DataApiService(readModels).rounds({ limit: 2, cursor: encodeCursor('/v1/rounds', [10n]) }),
    );
    expect(readModels.listRounds).toHaveBeenCalledWith(10n, 3);
    expect(page.data.map((r: { id: string }) => r.id)).toEqual(['9', '8']);
    expect(page.has_more).toBe(true);
    expect(decodeCursor(page.next_cursor ?? '', '/v1/rounds', 1)).toEqual([8n]);
  });

  it('ends with a null cursor when the read model has nothing beyond the page', async () => {
    const readModels = stubReadModels({ listRounds: async () => [round({ id: 1n })] });
    expect(parsed(await new DataApiService(readModels).rounds({ limit: 2, cursor: null }))).toEqual({
      data: [expect.objectContaining({ id: '1' })],
      next_cursor: null,
      has_more: false,
    });
    expect(readModels.listRounds).toHaveBeenCalledWith(null, 3);
  });

  it('pages round wins by (amount, id) and marks settled rounds cacheable', async () => {
    const readModels = stubReadModels({
      roundById: async () => round({ id: 1n }),
      roundWins: async () => [win(5n, 300n), win(4n, 300n)],
    });
    const result = await new DataApiService(readModels).roundWins(1n, {
      limit: 1,
      cursor: encodeCursor('/v1/rounds/1/wins', [500n, 9n]),
    });
    expect(readModels.roundWins).toHaveBeenCalledWith(1n, { limit: 2, after: { amount: 500n, id: 9n } });
    expect(result).toBeInstanceOf(Cacheable);
    expect(result.cacheControl).toMatch(/max-age/);
    expect(parsed(result.body).next_cursor).toBe(encodeCursor('/v1/rounds/1/wins', [300n, 5n]));
    expect(parsed(result.body).data[0]).toMatchObject({ id: '5', amount: { amount: '300', decimals: 6 } });
  });

  describe('with the settlement committed between the round read and the page read', () => {
    const undrawn = ticket({ id: 4n, roundId: 1n, wallet: WALLET });
    const drawn = win(4n, 300n);

    /**
     * Round 1 is drawn and being settled: the projector's commit lands after the request's first statement
     * ends. Statements issued together run in the order worst for the answer: the page first.
     */
    function settlingReadModels() {
      let settled = false;
      let page: Promise<TicketRecord[]> | null = null;
      const read = async <T>(snapshot: () => T): Promise<T> => {
        const value = snapshot();
        settled = true;
        return value;
      };
      const pageRead = () => (page = read(() => (settled ? [drawn] : [undrawn])));
      return stubReadModels({
        roundById: async () => {
          await null; // a page asked together is issued by now
          if (page) await page;
          return read(() => round({ id: 1n, status: settled ? 'settled' : 'active' }));
        },
        roundTickets: pageRead,
        roundWins: pageRead,
      });
    }

    it.each(['roundTickets', 'roundWins'] as const)(
      '%s never caches a page from before the settlement',
      async (method) => {
        const result = await new DataApiService(settlingReadModels())[method](1n, { limit: 5, cursor: null });
        // the round was seen before the commit, so the page (after it) is fresh but not cached as settled
        expect(result.cacheControl).toBeNull();
        expect(parsed(result.body).data).toEqual([expect.objectContaining({ id: '4', matched_normals: 2 })]);
      },
    );
  });

  it('does not mark an active round cacheable', async () => {
    const readModels = stubReadModels({ roundById: async () => round({ id: 3n, status: 'active' }) });
    expect((await new DataApiService(readModels).round(3n)).cacheControl).toBeNull();
  });

  it('answers 404 for a missing round, and for ids no row can have without asking', async () => {
    const readModels = stubReadModels({ roundById: async () => null });
    const service = new DataApiService(readModels);
    await expect(service.roundTickets(7n, { limit: 5, cursor: null })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.walletWins(WALLET, 7n, { limit: 5, cursor: null })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(service.round(2n ** 70n)).rejects.toBeInstanceOf(ApiError);
    expect(readModels.roundById).toHaveBeenCalledTimes(2);
  });

  it('signals a missing active round as upstream_unavailable', async () => {
    const service = new DataApiService(stubReadModels({ activeRound: async () => null }));
    await expect(service.activeRound()).rejects.toMatchObject({ code: 'upstream_unavailable', status: 503 });
  });

  it('passes wallet filters through as keyset queries', async () => {
    const readModels = stubReadModels({ walletTickets: async () => [] });
    await new DataApiService(readModels).walletTickets(WALLET, null, {
      limit: 10,
      cursor: encodeCursor(`/v1/wallets/${WALLET}/tickets`, [42n]),
    });
    expect(readModels.walletTickets).toHaveBeenCalledWith(WALLET, null, { limit: 11, beforeId: 42n });
  });

  it('refuses a win without a draw outcome as a read-model bug', async () => {
    const broken = { ...win(1n, 5n), matchedNormals: null };
    const readModels = stubReadModels({ walletWins: async () => [broken] });
    await expect(new DataApiService(readModels).walletWins(WALLET, null, { limit: 1, cursor: null })).rejects.toThrow(
      'without a draw outcome',
    );
  });
});
