import 'reflect-metadata';
import { Command } from 'commander';
import { registerApiKeys } from './commands/api-keys';
import { registerReindex } from './commands/reindex';
import { registerReplay } from './commands/replay';
import { registerMigrate } from './commands/migrate';
import { registerPartners } from './commands/partners';
import { registerReset } from './commands/reset';
import { registerStart } from './commands/start';
import { registerStatus } from './commands/status';

/** `npm run ops -- <command>`: what operators run. Every command takes --json for scripts. */
const program = new Command('ops').description('operate the lottery data backbone').showHelpAfterError();
registerStart(program);
registerStatus(program);
registerApiKeys(program);
registerReplay(program);
registerReindex(program);
registerPartners(program);
registerMigrate(program);
registerReset(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  const json = process.argv.includes('--json');
  const message = error instanceof Error ? error.message : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`error: ${message}\n`);
  process.exit(1);
});
