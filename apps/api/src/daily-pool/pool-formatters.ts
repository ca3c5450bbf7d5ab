import { formatTimestamp, normalizeAddress } from '@lottery/domain';
import type { PoolEntryRecord, PoolRoundRecord, PoolTransactionRecord } from '@lottery/persistence';
import type { PoolEntryDto, PoolWalletEntryDto } from './dto/pool-entry.dto';
import type { PoolRoundViewDto, PoolRoundWithWinnerDto, PoolTransactionDto } from './dto/pool-round.dto';

/**
 * Read-model records → the pool API's JSON: integers for ids (the spec's type), lowercase addresses,
 * ISO 8601 UTC timestamps with milliseconds, null for a missing transaction or winner.
 */
function formatPoolEntry(entry: PoolEntryRecord): PoolEntryDto {
  return { id: entry.id, address: normalizeAddress(entry.address), timestamp: formatTimestamp(entry.timestamp) };
}

export function formatPoolWalletEntry(entry: PoolEntryRecord): PoolWalletEntryDto {
  return { ...formatPoolEntry(entry), jackpotRoundId: jsonInteger(entry.roundId) };
}

function formatTransaction(transaction: PoolTransactionRecord): PoolTransactionDto {
  return {
    id: transaction.id,
    transactionHash: transaction.transactionHash,
    blockNumber: transaction.blockNumber,
    timestamp: formatTimestamp(transaction.timestamp),
  };
}

export function formatPoolRound(round: PoolRoundRecord, entries: PoolEntryRecord[]): PoolRoundViewDto {
  return {
    roundId: jsonInteger(round.roundId),
    transaction: round.transaction === null ? null : formatTransaction(round.transaction),
    entries: entries.map(formatPoolEntry),
    totalEntries: round.totalEntries,
  };
}

export function formatPoolRoundWithWinner(round: PoolRoundRecord, entries: PoolEntryRecord[]): PoolRoundWithWinnerDto {
  return { ...formatPoolRound(round, entries), winner: round.winner === null ? null : formatPoolEntry(round.winner) };
}

/** Round ids are integers in this API: beyond 2^53 a JSON reader would silently change them. */
function jsonInteger(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`round id ${value} is not a safe JSON integer`);
  return Number(value);
}
