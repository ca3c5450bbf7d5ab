import { Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { Hex } from '@lottery/domain';
import { PATTERNS } from '../data-api/dto/api-properties';
import { PlainApiOperation } from '../http/plain-api-operation.decorator';
import { WalletAddressPipe } from '../http/wallet-address.pipe';
import { DailyPoolService } from './daily-pool.service';
import { PoolWalletEntriesDto } from './dto/pool-entry.dto';
import { NoActiveRoundDto, PoolRoundViewDto, PoolRoundWithWinnerDto } from './dto/pool-round.dto';
import { PoolController } from './pool-controller.decorator';
import { PoolRoundIdPipe } from './pool-round-id.pipe';

const WALLET = { name: 'walletAddress', description: 'Wallet address, any letter case', pattern: PATTERNS.address };
const ROUND_ID = { name: 'roundId', description: 'Jackpot round id, 0..2^53−1', pattern: PATTERNS.roundId };

/** Statuses every pool operation may answer. */
const ALWAYS = {
  401: '"Invalid API key": the `apikey` is missing, unknown, revoked or of another environment',
  429: '"Rate limit exceeded": the key\'s budget (shared with the Data API), or without a valid key the IP\'s (whose keys are not looked up for the rest of a minute in which it sent as many refused ones as that budget); see Retry-After',
  500: '"Internal server error"',
  503: '"Service unavailable": the database is unreachable; retry with backoff',
};
const BAD_WALLET = { 400: '"Invalid wallet address"' };
const ROUND_IDS = new PoolRoundIdPipe();
const WALLETS = new WalletAddressPipe();
const BAD_ROUND = { 400: '"Invalid round id" or "Invalid wallet address"', 404: '"Round not found"' };

@ApiTags('daily-ticket-pool')
@ApiExtraModels(PoolRoundViewDto, PoolRoundWithWinnerDto, NoActiveRoundDto)
@PoolController()
export class DailyPoolController {
  constructor(private readonly pool: DailyPoolService) {}

  @Get('active-round')
  @PlainApiOperation({
    operationId: 'getPoolActiveRound',
    summary: 'Entries of the active round; `{message}` (still 200) when no round is active',
    ok: [PoolRoundViewDto, NoActiveRoundDto],
    errors: ALWAYS,
  })
  activeRound() {
    return this.pool.activeRound(null);
  }

  @Get('active-round/:walletAddress')
  @PlainApiOperation({
    operationId: 'getPoolActiveRoundOfWallet',
    summary: "The active round with only the wallet's entries; totalEntries counts the whole round",
    ok: [PoolRoundViewDto, NoActiveRoundDto],
    params: [WALLET],
    errors: { ...BAD_WALLET, ...ALWAYS },
  })
  activeRoundOfWallet(@Param('walletAddress', WalletAddressPipe) wallet: Hex) {
    return this.pool.activeRound(wallet);
  }

  @Get('round')
  @PlainApiOperation({
    operationId: 'getPoolLatestCompletedRound',
    summary: 'The latest completed round with its winner',
    ok: PoolRoundWithWinnerDto,
    errors: { 404: '"Round not found": no round has completed yet', ...ALWAYS },
  })
  latestCompletedRound() {
    return this.pool.latestCompletedRound();
  }

  @Get('round/:roundId')
  @PlainApiOperation({
    operationId: 'getPoolRound',
    summary: 'One round; `winner` only once the round is no longer active',
    ok: [PoolRoundViewDto, PoolRoundWithWinnerDto],
    params: [ROUND_ID],
    errors: { 400: '"Invalid round id"', 404: BAD_ROUND[404], ...ALWAYS },
  })
  round(@Param('roundId', PoolRoundIdPipe) roundId: bigint) {
    return this.pool.round(roundId, null);
  }

  @Get('round/:roundId/:walletAddress')
  @PlainApiOperation({
    operationId: 'getPoolRoundOfWallet',
    summary: "One round with only the wallet's entries; totalEntries unfiltered; `winner` once not active",
    ok: [PoolRoundViewDto, PoolRoundWithWinnerDto],
    params: [ROUND_ID, WALLET],
    errors: { ...BAD_ROUND, ...ALWAYS },
  })
  roundOfWallet(@Param('roundId') roundId: string, @Param('walletAddress') wallet: string) {
    // checked here, in this order, because Nest runs parameter pipes last parameter first: with both
    // bad, the round id is the one reported
    return this.pool.round(ROUND_IDS.transform(roundId), WALLETS.transform(wallet));
  }

  @Get(':walletAddress')
  @PlainApiOperation({
    operationId: 'listPoolWalletEntries',
    summary: "The wallet's entries across all rounds, with their jackpot round",
    ok: PoolWalletEntriesDto,
    params: [WALLET],
    errors: { ...BAD_WALLET, ...ALWAYS },
  })
  walletEntries(@Param('walletAddress', WalletAddressPipe) wallet: Hex) {
    return this.pool.walletEntries(wallet);
  }
}
