import { lotteryHistory } from '@lottery/fold-testing';
import { FOLD_RULES_VERSION, FoldRulesChangedError, isNewerFoldRules, WITHDRAWN_FOLD_RULES } from '../src';
import { asLog, projectionSuite } from './support/projection-harness';

const history = asLog(lotteryHistory({ seed: 5, settledRounds: 1, purchasesPerRound: 5, wallets: 3 }));

describe('the fold rules version of the read models', () => {
  const h = projectionSuite('projection_fold_rules');

  const stored = async (): Promise<number | null> => {
    const [row] = (await h.dataSource.query(`SELECT fold_rules FROM lottery.projector_state`)) as {
      fold_rules: number | null;
    }[];
    return row.fold_rules;
  };
  const dumpTickets = () => h.dataSource.query(`SELECT * FROM lottery.tickets ORDER BY id`);

  it('is recorded by the first batch into empty read models', async () => {
    expect(await stored()).toBeNull();
    await h.projection.applyBatch(history.slice(0, 10));
    expect(await stored()).toBe(FOLD_RULES_VERSION);
    expect((await h.projection.cursor()).position).toBe(10);
  });

  it('refuses read models folded under other rules, at start and per batch, and tells how to rebuild them', async () => {
    await h.projection.applyBatch(history.slice(0, 10));
    const tickets = await dumpTickets();
    await h.dataSource.query(`UPDATE lottery.projector_state SET fold_rules = $1`, [FOLD_RULES_VERSION - 1]);

    await expect(h.projection.cursor()).rejects.toBeInstanceOf(FoldRulesChangedError);
    await expect(h.projection.applyBatch(history.slice(10))).rejects.toThrow(
      `folded under fold rules version ${FOLD_RULES_VERSION - 1} and this projector folds version ` +
        `${FOLD_RULES_VERSION}: rebuild them with \`npm run ops -- replay\``,
    );
    // nothing was added to them
    expect(await stored()).toBe(FOLD_RULES_VERSION - 1);
    expect(await dumpTickets()).toEqual(tickets);
  });

  it("tells a newer version's rules from older and withdrawn ones, which a replay of this version rebuilds", () => {
    const withdrawn = [...WITHDRAWN_FOLD_RULES];
    expect(withdrawn.every((rules) => rules !== FOLD_RULES_VERSION && !isNewerFoldRules(rules))).toBe(true);
    expect([1, FOLD_RULES_VERSION - 1, FOLD_RULES_VERSION].map(isNewerFoldRules)).toEqual([false, false, false]);
    expect(isNewerFoldRules(Math.max(FOLD_RULES_VERSION, ...withdrawn) + 1)).toBe(true);
  });
});
