import { Inject, Injectable } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import type { ReadModelQueries } from '@lottery/persistence';
import { READ_MODEL_QUERIES } from '../data-api/read-models.token';
import { PlainApiError } from '../http/plain-api-error';
import type { PoolWalletEntriesDto } from './dto/pool-entry.dto';
import type { NoActiveRoundDto, PoolRoundViewDto, PoolRoundWithWinnerDto } from './dto/pool-round.dto';
import { formatPoolRound, formatPoolRoundWithWinner, formatPoolWalletEntry } from './pool-formatters';

const NO_ACTIVE_ROUND = 'No active round';

const roundNotFound = () => new PlainApiError(404, 'Round not found');

/** The free daily pool's reads: read models in, the spec's JSON out. */
@Injectable()
export class DailyPoolService {
  constructor(@Inject(READ_MODEL_QUERIES) private readonly readModels: ReadModelQueries) {}

  /** The spec answers "no active round" with 200 and a message, not with an error. */
  activeRound(wallet: Hex | null): Promise<PoolRoundViewDto | NoActiveRoundDto> {
    return this.readModels.inSnapshot(async (snapshot) => {
      const round = await snapshot.poolActiveRound();
      if (!round) return { message: NO_ACTIVE_ROUND };
      return formatPoolRound(round, await snapshot.poolEntries(round.roundId, wallet));
    });
  }

  /** The latest completed (settled) round, always with its winner; 404 before any round completed. */
  async latestCompletedRound(): Promise<PoolRoundWithWinnerDto> {
    const view = await this.readModels.inSnapshot(async (snapshot) => {
      const round = await snapshot.poolLatestCompletedRound();
      return round && formatPoolRoundWithWinner(round, await snapshot.poolEntries(round.roundId, null));
    });
    if (!view) throw roundNotFound();
    return view;
  }

  /** Any round by id; `winner` only once the round is no longer active (spec). */
  async round(id: bigint, wallet: Hex | null): Promise<PoolRoundViewDto | PoolRoundWithWinnerDto> {
    const view = await this.readModels.inSnapshot(async (snapshot) => {
      const round = await snapshot.poolRound(id);
      if (!round) return null;
      const entries = await snapshot.poolEntries(round.roundId, wallet);
      return round.active ? formatPoolRound(round, entries) : formatPoolRoundWithWinner(round, entries);
    });
    if (!view) throw roundNotFound();
    return view;
  }

  async walletEntries(wallet: Hex): Promise<PoolWalletEntriesDto> {
    return { entries: (await this.readModels.poolWalletEntries(wallet)).map(formatPoolWalletEntry) };
  }
}
