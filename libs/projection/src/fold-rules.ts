import type { ProjectorCursor } from '@lottery/persistence';

/**
 * The version of the fold's rules. Raise it with any change that makes the same events fold into other
 * rows: read models built under another version are refused (FoldRulesChangedError) until `ops replay`
 * rebuilds them, instead of being extended with rows that follow different rules.
 *
 * 1. The first rules.
 * 2. A winning ticket's referral share rounds down and its owner keeps the remainder, as the contract
 *    pays a claim (net winnings were rounded down before).
 * 3. A referral fee of 0 makes no wallet_stats row (an all-zero row was made, which an undo then dropped).
 * 5. A round locked again after an unlock keeps its first lock's block (the last one's was kept, and an
 *    undo of that last lock cleared it).
 */
export const FOLD_RULES_VERSION = 5;

/**
 * Versions that were on main and were withdrawn: read models built under one are rebuilt like an older
 * version's, never taken for a newer version's. The next version is the first number above them all.
 *
 * 4. A round's top prize as the largest any ticket won (withdrawn: docs/read-models.md defines it as the
 *    jackpot tier's, as 3 has it).
 */
export const WITHDRAWN_FOLD_RULES: ReadonlySet<number> = new Set([4]);

/** Read models folded under `rules` are a newer version's: this one must neither extend nor rebuild them. */
export const isNewerFoldRules = (rules: number): boolean =>
  rules > FOLD_RULES_VERSION && !WITHDRAWN_FOLD_RULES.has(rules);

/** The read models were folded under other rules than this projector's. */
export class FoldRulesChangedError extends Error {
  constructor(
    readonly schema: string,
    readonly foldedUnder: number,
  ) {
    // a replay by this version would undo a newer one's
    const remedy = isNewerFoldRules(foldedUnder)
      ? "they are a newer version's: run that version's projector, or go back to this version's rules with " +
        '`npm run ops -- replay`'
      : 'rebuild them with `npm run ops -- replay` (they keep serving meanwhile)';
    super(
      `the read models in schema ${schema} were folded under fold rules version ${foldedUnder} and this ` +
        `projector folds version ${FOLD_RULES_VERSION}: ${remedy}; a waiting projector then folds on by itself, ` +
        'with no restart',
    );
    this.name = 'FoldRulesChangedError';
  }
}

/**
 * Checks that read models with this cursor may be extended by this projector: they are empty, or were
 * folded under the same rules. Marks the cursor with them, for the next save.
 */
export function useFoldRules(cursor: ProjectorCursor, schema: string): void {
  if (cursor.foldRules !== null && cursor.foldRules !== FOLD_RULES_VERSION) {
    throw new FoldRulesChangedError(schema, cursor.foldRules);
  }
  cursor.foldRules = FOLD_RULES_VERSION;
}
