import { FRACTION_SCALE, matchTicket, type ChainEventEnvelope, type Hex } from '@lottery/domain';
import { ChainWriter, hex, Random } from './chain-writer';

export interface HistoryOptions {
  seed: number;
  /** Drawings that settle; one more stays active at the end. */
  settledRounds: number;
  purchasesPerRound: number;
  wallets: number;
  chainId?: number;
  /** See ChainWriter: 1 (default) puts every transaction in the next block or the same one. */
  maxBlockGap?: number;
}

const JACKPOT = hex(0x1a, 20);
const PAYOUT_CALCULATOR = hex(0x2b, 20);
const POOL = hex(0x3c, 20);
const TICKET_PRICE = 1_000_000n;
const EDGE = 300_000n;
const REFERRAL_WIN_SHARE = FRACTION_SCALE / 10n;
const NORMALS_MAX = 12;
const BONUSBALL_MAX = 4;

interface Ticket {
  userTicketId: bigint;
  roundId: number;
  normals: number[];
  bonusball: number;
  scheme: Scheme | null;
  owner: Hex;
}
interface Scheme {
  id: Hex;
  referrers: Hex[];
  splits: bigint[];
  announced: boolean;
}

/**
 * A consistent lottery history as the indexer would append it: purchases (with duplicates, referral
 * schemes, buyers other than the recipient), LP updates, pool entries and transactions, locks,
 * settlements with winners, claims of earlier wins (with the referral bonuses they pay), pool winners.
 * Small ball ranges make every tier, duplicates and jackpot hits common.
 */
export function lotteryHistory(options: HistoryOptions): ChainEventEnvelope[] {
  const random = new Random(options.seed);
  const chain = new ChainWriter(
    options.seed,
    options.chainId ?? 31337,
    random,
    100,
    1_700_000_000,
    options.maxBlockGap,
  );
  const wallets = Array.from({ length: options.wallets }, (_, i) => hex(0xa000 + options.seed * 1000 + i, 20));
  const referrersOnly = [hex(0xbeef01, 20), hex(0xbeef02, 20)];
  const schemes: Scheme[] = [
    [[wallets[0]], [FRACTION_SCALE]],
    [
      [referrersOnly[0], wallets[1]],
      [(FRACTION_SCALE * 3n) / 4n, FRACTION_SCALE / 4n],
    ],
    // thirds: the splits sum to exactly 1 as the Jackpot demands, and each referrer's amount rounds down
    [
      [referrersOnly[1], referrersOnly[0]],
      [FRACTION_SCALE / 3n, FRACTION_SCALE - FRACTION_SCALE / 3n],
    ],
  ].map(([referrers, splits], i) => ({
    id: hex(0xc0de00 + i, 32),
    referrers: referrers as Hex[],
    splits: splits as bigint[],
    announced: false,
  }));
  const unclaimedWins: Ticket[] = [];
  let nextUserTicketId = 10n ** 70n * BigInt((options.seed % 9) + 1);
  let nextEntryId = 1;

  const open = (roundId: number) =>
    chain.emit(
      'NewDrawingInitialized',
      {
        drawingId: String(roundId),
        lpPoolTotal: '5000000000',
        prizePool: String(1_000_000_000 + roundId * 1000),
        ticketPrice: String(TICKET_PRICE),
        normalBallMax: String(NORMALS_MAX),
        bonusballMax: BONUSBALL_MAX,
        referralWinShare: String(REFERRAL_WIN_SHARE),
        drawingTime: String(chain.timestamp + 86_400),
        edgePerTicket: String(EDGE),
      },
      JACKPOT,
    );

  const purchase = (roundId: number, tickets: Ticket[]) => {
    const recipient = random.pick(wallets);
    const buyer = random.chance(0.3) ? random.pick(wallets) : recipient;
    const scheme = random.chance(0.4) ? random.pick(schemes) : null;
    const count = random.int(1, 4);
    chain.tx(() => {
      for (const referrer of scheme?.referrers ?? []) {
        chain.emit('ReferralFeeCollected', { referrer, amount: String(random.int(1, 9) * 10_000) }, JACKPOT);
      }
      if (scheme && !scheme.announced) {
        scheme.announced = true;
        chain.emit(
          'ReferralSchemeAdded',
          { referralSchemeId: scheme.id, referrers: scheme.referrers, referralSplit: scheme.splits.map(String) },
          JACKPOT,
        );
      }
      for (let i = 0; i < count; i++) {
        const earlier = tickets.length > 0 && random.chance(0.15) ? random.pick(tickets) : null;
        const normals = earlier
          ? random.shuffle(earlier.normals)
          : random.shuffle(Array.from({ length: NORMALS_MAX }, (_, k) => k + 1)).slice(0, 5);
        const bonusball = earlier ? earlier.bonusball : random.int(1, BONUSBALL_MAX);
        const ticket = { userTicketId: nextUserTicketId++, roundId, normals, bonusball, scheme, owner: recipient };
        tickets.push(ticket);
        chain.emit(
          'TicketPurchased',
          {
            recipient,
            currentDrawingId: String(roundId),
            source: hex(0, 32),
            userTicketId: String(ticket.userTicketId),
            normals,
            bonusball,
            referralScheme: scheme?.id ?? hex(0, 32),
          },
          JACKPOT,
        );
      }
      chain.emit(
        'TicketOrderProcessed',
        {
          buyer,
          recipient,
          currentDrawingId: String(roundId),
          numberOfTickets: String(count),
          lpEarnings: String(BigInt(count) * 200_000n),
          referralFees: '0',
        },
        JACKPOT,
      );
    });
  };

  const claim = () => {
    const ticket = unclaimedWins.splice(random.int(0, unclaimedWins.length - 1), 1)[0];
    chain.tx(() => {
      for (const referrer of ticket.scheme?.referrers ?? []) {
        chain.emit('ReferralFeeCollected', { referrer, amount: '12345' }, JACKPOT);
      }
      chain.emit(
        'TicketWinningsClaimed',
        {
          // the NFT may have changed hands: the claimer is whoever holds it now
          userAddress: random.chance(0.2) ? random.pick(wallets) : ticket.owner,
          drawingId: String(ticket.roundId),
          userTicketId: String(ticket.userTicketId),
          matchedNormals: '0',
          bonusballMatch: false,
          winningsAmount: '0',
        },
        JACKPOT,
      );
    });
  };

  const enterPool = (roundId: number, entrants: { entryId: number; entrant: Hex }[]) => {
    const entrant = random.pick(wallets);
    const entryId = nextEntryId++;
    entrants.push({ entryId, entrant });
    chain.tx(() => chain.emit('PoolEntered', { drawingId: String(roundId), entrant, entryId: String(entryId) }, POOL));
  };

  // Tier 0 pays nothing, as the real calculator enforces; tier 2 pays in even drawings, as its owner may
  // configure (a minimum payout or a premium weight for a single normal). Its amount draws no random
  // number, so a seed's history keeps its shape.
  const payouts = (roundId: number): bigint[] =>
    Array.from({ length: 12 }, (_, tier) => {
      if (tier === 0) return 0n;
      if (tier === 2) return roundId % 2 === 0 ? 80_000n + BigInt(roundId) : 0n;
      return BigInt(tier ** 3 * 10_000 + random.int(0, 99));
    });

  chain.tx(() => open(1));
  for (let roundId = 1; roundId <= options.settledRounds + 1; roundId++) {
    const tickets: Ticket[] = [];
    const entrants: { entryId: number; entrant: Hex }[] = [];
    for (let p = 0; p < options.purchasesPerRound; p++) {
      purchase(roundId, tickets);
      if (random.chance(0.3)) enterPool(roundId, entrants);
      if (unclaimedWins.length > 0 && random.chance(0.25)) claim();
      if (random.chance(0.05)) {
        chain.tx(() => chain.emit('LpEarningsUpdated', { drawingId: String(roundId), amount: '777' }, JACKPOT));
      }
      if (random.chance(0.04)) {
        chain.tx(() =>
          chain.emit('PoolTicketsBought', { drawingId: String(roundId), count: '2', ticketIds: ['1', '2'] }, POOL),
        );
      }
    }
    if (roundId > options.settledRounds) break;
    chain.tx(() => {
      chain.emit('JackpotLocked', { drawingId: String(roundId) }, JACKPOT);
      chain.emit('JackpotRunRequested', { drawingId: String(roundId), entropyGasLimit: '1', fee: '1' }, JACKPOT);
    });
    const lucky = random.chance(0.6) && tickets.length > 0 ? random.pick(tickets) : null;
    const winning = lucky
      ? { normals: lucky.normals, bonusball: lucky.bonusball }
      : {
          normals: random.shuffle(Array.from({ length: NORMALS_MAX }, (_, k) => k + 1)).slice(0, 5),
          bonusball: random.int(1, BONUSBALL_MAX),
        };
    const tierPayouts = payouts(roundId);
    chain.tx(() => {
      chain.emit(
        'PrizeTierPayoutsCalculated',
        { drawingId: String(roundId), tierPayouts: tierPayouts.map(String) },
        PAYOUT_CALCULATOR,
      );
      chain.emit(
        'WinnersCalculated',
        {
          drawingId: String(roundId),
          winningNormals: winning.normals.map(String),
          winningBonusball: String(winning.bonusball),
          uniqueResult: [],
          dupResult: [],
        },
        JACKPOT,
      );
      chain.emit('ProtocolFeeCollected', { drawingId: String(roundId), amount: '5' }, JACKPOT);
      open(roundId + 1);
      chain.emit(
        'JackpotSettled',
        {
          drawingId: String(roundId),
          lpEarnings: String(BigInt(tickets.length) * 150_000n + 1n),
          userWinnings: '0',
          winningBonusball: winning.bonusball,
          winningNumbers: '0',
          newDrawingAccumulator: '0',
        },
        JACKPOT,
      );
    });
    for (const t of tickets) if (tierPayouts[matchTicket(t, winning).tierId] > 0n) unclaimedWins.push(t);
    // now and then the operator selects again: the latest selection is the round's winner
    for (let selections = 0; entrants.length > 0 && random.chance(selections === 0 ? 0.8 : 0.3); selections++) {
      const winner = random.pick(entrants);
      chain.tx(() =>
        chain.emit(
          'PoolWinnerSelected',
          { drawingId: String(roundId), winner: winner.entrant, entryId: String(winner.entryId) },
          POOL,
        ),
      );
    }
  }
  return chain.events;
}
