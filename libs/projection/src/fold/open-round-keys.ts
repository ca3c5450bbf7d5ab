import type { Hex } from '@lottery/domain';
import type { FoldReadsPort } from '@lottery/persistence';

export interface RoundKeys {
  /** numbersCode of every ticket of the round so far: a ticket whose code is here is a duplicate. */
  numbers: Set<number>;
  /** Recipients so far: a wallet not here is a new participant (and plays one more round). */
  wallets: Set<Hex>;
}

/**
 * The duplicate and participant sets of the rounds still selling tickets, kept in memory across batches
 * so a purchase needs no lookup (and the tickets table no index for it). Only open rounds take tickets,
 * so this holds one round in practice.
 *
 * It is a cache of committed state: valid only at the log position, and in the schema generation, it was
 * built for. Whoever commits a batch moves it forward; anything else (a failed batch, a revert, another
 * writer such as a replay switching schemas) makes the next batch start from an empty cache and reload
 * from the tickets table. A replay's switch may leave the position as it was (nothing was appended
 * meanwhile) with other tickets behind it (the reason for the replay): the generation tells.
 */
export class OpenRoundKeys {
  private readonly rounds = new Map<bigint, RoundKeys>();
  private validAt: { position: number | null; generation: number } | undefined;
  /** The generation of the batch using the cache, until it commits. */
  private using: number | undefined;

  /** Drops everything unless the cache was left at exactly this stored position of this generation. */
  useAt(storedPosition: number | null, generation: number): void {
    if (this.validAt?.position !== storedPosition || this.validAt.generation !== generation) this.clear();
    this.validAt = undefined;
    this.using = generation;
  }

  /** The batch that used the cache committed at this position. */
  committedAt(position: number | null): void {
    this.validAt = this.using === undefined ? undefined : { position, generation: this.using };
  }

  clear(): void {
    this.rounds.clear();
    this.validAt = undefined;
  }

  forget(roundId: bigint): void {
    this.rounds.delete(roundId);
  }

  async load(reads: FoldReadsPort, roundIds: Iterable<bigint>): Promise<void> {
    for (const roundId of roundIds) {
      if (this.rounds.has(roundId)) continue;
      const stored = await reads.roundTicketKeys(roundId);
      this.rounds.set(roundId, { numbers: new Set(stored.numbersCodes), wallets: new Set(stored.wallets) });
    }
  }

  of(roundId: bigint): RoundKeys {
    let keys = this.rounds.get(roundId);
    if (!keys) {
      // A round opened in this batch has no stored tickets.
      keys = { numbers: new Set(), wallets: new Set() };
      this.rounds.set(roundId, keys);
    }
    return keys;
  }
}
