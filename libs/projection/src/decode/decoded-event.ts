import type { Hex } from '@lottery/domain';

/** Where an applied event sits, on chain and in the log. */
export interface EventMeta {
  id: string;
  position: number | null;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds. */
  blockTimestamp: number;
  txHash: Hex;
  logIndex: number;
}

/** The payload fields the read models use, validated and typed (uint256 → bigint). */
export type DecodedBody =
  | {
      type: 'NewDrawingInitialized';
      roundId: bigint;
      prizePool: bigint;
      ticketPrice: bigint;
      normalBallMax: number;
      bonusballMax: number;
      referralWinShare: bigint;
      drawingTime: number;
      edgePerTicket: bigint;
    }
  | { type: 'TicketOrderProcessed'; roundId: bigint; buyer: Hex; recipient: Hex; lpEarnings: bigint }
  | {
      type: 'TicketPurchased';
      roundId: bigint;
      recipient: Hex;
      userTicketId: bigint;
      normals: number[];
      bonusball: number;
      /** null for the zero scheme (no referrers). */
      referralScheme: Hex | null;
    }
  | { type: 'ReferralSchemeAdded'; schemeId: Hex; referrers: Hex[]; splits: bigint[] }
  | { type: 'ReferralFeeCollected'; referrer: Hex; amount: bigint }
  | { type: 'JackpotLocked'; roundId: bigint }
  | { type: 'PrizeTierPayoutsCalculated'; roundId: bigint; tierPayouts: bigint[] }
  | { type: 'WinnersCalculated'; roundId: bigint; winningNormals: number[]; winningBonusball: number }
  | { type: 'JackpotSettled'; roundId: bigint; lpEarnings: bigint }
  | { type: 'TicketWinningsClaimed'; userTicketId: bigint }
  | { type: 'LpEarningsUpdated'; roundId: bigint; amount: bigint }
  | { type: 'PoolEntered'; roundId: bigint; entrant: Hex; entryId: bigint }
  | { type: 'PoolTicketsBought'; roundId: bigint }
  | { type: 'PoolWinnerSelected'; roundId: bigint; winner: Hex; entryId: bigint }
  /** A lottery event no read model depends on (LP bookkeeping, fees, refunds…): kept in chain_events only. */
  | { type: 'Unprojected'; eventType: string };

export type DecodedChainEvent = EventMeta & { kind: 'chain'; body: DecodedBody; envelope: unknown };

export interface DecodedRevert {
  kind: 'revert';
  id: string;
  position: number | null;
  fromBlock: number;
}
