/** The committed artifacts module must be what the Solidity sources compile to today. */
import * as committed from '../generated/artifacts';
import { CONTRACT_KEYS, DEPLOYABLE_CONTRACTS } from './contract-names';
import { compileLotteryContracts } from './solidity-compiler';

describe('generated artifacts', () => {
  const compiled = compileLotteryContracts();
  const exports = committed as Record<string, unknown>;

  it.each(DEPLOYABLE_CONTRACTS.map((name) => [name]))(
    '%s: ABI and bytecode match a fresh compile (else run `npx nx run contracts:compile`)',
    (name) => {
      const key = CONTRACT_KEYS[name];
      expect(exports[`${key}Abi`]).toEqual(compiled[name].abi);
      expect(exports[`${key}Bytecode`]).toBe(compiled[name].bytecode);
    },
  );

  it('exports nothing but the deployable contracts', () => {
    const expected = DEPLOYABLE_CONTRACTS.flatMap((name) => [
      `${CONTRACT_KEYS[name]}Abi`,
      `${CONTRACT_KEYS[name]}Bytecode`,
    ]);
    expect(Object.keys(exports).sort()).toEqual(expected.sort());
  });
});
