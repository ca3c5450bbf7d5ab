/** Recompiles libs/contracts/solidity and rewrites src/generated/artifacts.ts (run via `nx run contracts:compile`). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { compileLotteryContracts, renderArtifactsModule } from '../src/compile/solidity-compiler';

async function main(): Promise<void> {
  const started = Date.now();
  const target = join(__dirname, '..', 'src', 'generated', 'artifacts.ts');
  const compiled = compileLotteryContracts();
  // Written as the repository's Prettier would write it, so `npm run format` leaves it alone.
  const source = await format(renderArtifactsModule(compiled), { ...(await resolveConfig(target)), filepath: target });
  writeFileSync(target, source);
  const sizes = Object.entries(compiled).map(([name, c]) => `${name} ${(c.bytecode.length - 2) / 2} B`);
  console.log(`compiled ${sizes.length} contracts in ${Date.now() - started} ms -> ${target}\n  ${sizes.join('\n  ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
