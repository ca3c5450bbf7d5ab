import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '../schema-name';

/**
 * The read models of docs/read-models.md. Every object is created inside the data source's
 * schema (never `public`), so a replay can run these same migrations into `<schema>_next`.
 *
 * Amounts are numeric(78,0) (a uint256 always fits), addresses and hashes lowercase text. There are no
 * foreign keys: the projector is the only writer and checks the invariants itself, and FK probes on
 * every ticket insert would cost the fold a large share of its throughput.
 */
export class CreateReadModels1732300000000 implements MigrationInterface {
  name = 'CreateReadModels1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.projector_state (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        -- last applied event-log position; null before the first batch
        position bigint,
        -- last applied chain position, the idempotency fence for re-appended events
        last_block bigint NOT NULL,
        last_log_index integer NOT NULL,
        -- chain_events holds every applied event at or above this block (older ones left the reorg window)
        retained_from_block bigint NOT NULL
      );
      INSERT INTO ${s}.projector_state (id, position, last_block, last_log_index, retained_from_block)
      VALUES (1, NULL, -1, -1, 0);

      -- Raw events of the applied blocks a reorg can still revert (the projector's reorg window):
      -- BlocksReverted undoes exactly these and deletes them; older ones are pruned.
      CREATE TABLE ${s}.chain_events (
        block_number bigint NOT NULL,
        log_index integer NOT NULL,
        block_hash text NOT NULL,
        -- json, not jsonb: only ever read back whole, and json takes a fraction of jsonb's insert cost
        event json NOT NULL,
        PRIMARY KEY (block_number, log_index)
      );

      CREATE TABLE ${s}.rounds (
        id bigint PRIMARY KEY,
        init_block bigint NOT NULL,
        ticket_price numeric(78,0) NOT NULL,
        edge_per_ticket numeric(78,0) NOT NULL,
        referral_win_share numeric(78,0) NOT NULL,
        initial_prize_pool numeric(78,0) NOT NULL,
        normals_max integer NOT NULL,
        bonusball_max integer NOT NULL,
        drawing_time timestamptz NOT NULL,
        locked_block bigint,
        ticket_count integer NOT NULL,
        unique_participants integer NOT NULL,
        duplicate_tickets integer NOT NULL,
        lp_earnings_open numeric(78,0) NOT NULL,
        payouts_block bigint,
        tier_payouts numeric(78,0)[],
        drawn_block bigint,
        winning_normals smallint[],
        winning_bonusball smallint,
        tier_ticket_counts integer[],
        settled_block bigint,
        settled_at timestamptz,
        lp_earnings_settled numeric(78,0),
        -- derived from the columns above by the projector, stored so the API reads one row
        prize_pool numeric(78,0) NOT NULL,
        winners_count integer NOT NULL,
        top_prize_amount numeric(78,0),
        top_prize_winners_count integer NOT NULL
      );
      -- the active round (normally one row): found without scanning every settled round
      CREATE INDEX rounds_active ON ${s}.rounds (id) WHERE settled_block IS NULL;

      -- Insert-only facts of a purchase. What a draw and a claim add lives in ticket_outcomes: updating
      -- every ticket of a round at its draw would rewrite all these indexes (10x the cost of inserting).
      CREATE TABLE ${s}.tickets (
        -- global sequence in canonical chain order: id order is (block, logIndex) order
        id bigint PRIMARY KEY,
        round_id bigint NOT NULL,
        user_ticket_id numeric(78,0) NOT NULL,
        wallet text NOT NULL,
        -- null only between a TicketPurchased and its transaction's TicketOrderProcessed in the next batch
        buyer text,
        normals smallint[] NOT NULL,
        bonusball smallint NOT NULL,
        -- sorted normals and bonusball packed in 48 bits: equal codes = duplicate tickets
        numbers_code bigint NOT NULL,
        referral_scheme text,
        tx_hash text NOT NULL,
        block_number bigint NOT NULL,
        log_index integer NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX tickets_user_ticket_id ON ${s}.tickets (user_ticket_id);
      CREATE INDEX tickets_round ON ${s}.tickets (round_id, id);
      CREATE INDEX tickets_wallet ON ${s}.tickets (wallet, id);
      CREATE INDEX tickets_wallet_round ON ${s}.tickets (wallet, round_id, id);
      CREATE INDEX tickets_awaiting_buyer ON ${s}.tickets (id) WHERE buyer IS NULL;

      -- One row per drawn ticket, written when its drawing is drawn (round and wallet repeated so the
      -- wins indexes need no join).
      CREATE TABLE ${s}.ticket_outcomes (
        ticket_id bigint PRIMARY KEY,
        round_id bigint NOT NULL,
        wallet text NOT NULL,
        matched_normals smallint NOT NULL,
        bonusball_match boolean NOT NULL,
        -- net of the round's referral share
        winnings_amount numeric(78,0) NOT NULL,
        -- the share withheld for the ticket's referral scheme, owed to its referrers until claimed
        referral_scheme text,
        referral_share numeric(78,0) NOT NULL,
        claimed boolean NOT NULL,
        claimed_tx_hash text
      );
      CREATE INDEX ticket_outcomes_round_wins ON ${s}.ticket_outcomes (round_id, winnings_amount, ticket_id)
        WHERE winnings_amount > 0;
      CREATE INDEX ticket_outcomes_wallet_wins ON ${s}.ticket_outcomes (wallet, ticket_id) WHERE winnings_amount > 0;
      CREATE INDEX ticket_outcomes_pending_referral ON ${s}.ticket_outcomes (referral_scheme)
        WHERE referral_share > 0 AND NOT claimed;

      CREATE TABLE ${s}.referral_schemes (
        scheme_id text PRIMARY KEY,
        referrers text[] NOT NULL,
        splits numeric(78,0)[] NOT NULL,
        block_number bigint NOT NULL
      );
      CREATE INDEX referral_schemes_referrers ON ${s}.referral_schemes USING gin (referrers);

      CREATE TABLE ${s}.wallet_stats (
        address text PRIMARY KEY,
        total_tickets integer NOT NULL,
        total_wins integer NOT NULL,
        total_winnings numeric(78,0) NOT NULL,
        total_spent numeric(78,0) NOT NULL,
        -- ReferralFeeCollected to the wallet (purchase fees and claim bonuses)
        referral_fees numeric(78,0) NOT NULL,
        -- its split of the referral share of still-unclaimed winning tickets
        referral_pending numeric(78,0) NOT NULL,
        rounds_played integer NOT NULL,
        first_seen_at timestamptz,
        last_seen_at timestamptz
      );

      CREATE TABLE ${s}.daily_pool_rounds (
        round_id bigint PRIMARY KEY,
        total_entries integer NOT NULL
      );
      CREATE TABLE ${s}.daily_pool_entries (
        entry_id bigint PRIMARY KEY,
        round_id bigint NOT NULL,
        address text NOT NULL,
        block_number bigint NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX daily_pool_entries_round ON ${s}.daily_pool_entries (round_id, entry_id);
      CREATE INDEX daily_pool_entries_address ON ${s}.daily_pool_entries (address, entry_id);
      CREATE TABLE ${s}.daily_pool_transactions (
        -- sequence in chain order, like ticket ids
        id bigint PRIMARY KEY,
        round_id bigint NOT NULL,
        tx_hash text NOT NULL,
        block_number bigint NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX daily_pool_transactions_round ON ${s}.daily_pool_transactions (round_id, id);
      -- every selection, in chain order: the round's winner is its latest, and undoing a reverted
      -- re-selection brings the earlier one back
      CREATE TABLE ${s}.daily_pool_winners (
        round_id bigint NOT NULL,
        block_number bigint NOT NULL,
        log_index integer NOT NULL,
        entry_id bigint NOT NULL,
        address text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (round_id, block_number, log_index)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    for (const table of [
      'daily_pool_winners',
      'daily_pool_transactions',
      'daily_pool_entries',
      'daily_pool_rounds',
      'wallet_stats',
      'referral_schemes',
      'ticket_outcomes',
      'tickets',
      'rounds',
      'chain_events',
      'projector_state',
    ]) {
      await queryRunner.query(`DROP TABLE ${s}.${table}`);
    }
  }
}
