import 'reflect-metadata';
import { Command } from 'commander';
import { registerApiKeys } from './commands/api-keys';

/** `npm run ops -- <command>`: what operators run. Every command takes --json for scripts. */
const program = new Command('ops').description('operate the lottery data backbone').showHelpAfterError();
registerApiKeys(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  const json = process.argv.includes('--json');
  const message = error instanceof Error ? error.message : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`error: ${message}\n`);
  process.exit(1);
});
