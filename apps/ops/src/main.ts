import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { registerApiKeys } from './commands/api-keys';
import { readStateIfReadable } from './data-dir';
import { explainedFailure } from './explained-failure';
import { reportFailure } from './output';
import { registerReindex } from './commands/reindex';
import { registerReplay } from './commands/replay';
import { registerMigrate } from './commands/migrate';
import { registerPartners } from './commands/partners';
import { registerReset } from './commands/reset';
import { registerStart } from './commands/start';
import { registerStatus } from './commands/status';

/** `npm run ops -- <command>`: what operators run. Every command takes --json for scripts. */
const program = new Command('ops')
  .description('operate the lottery data backbone')
  .showHelpAfterError()
  // a refused option or argument ends up in the catch below too, so that --json gets its JSON error
  .exitOverride();
registerStart(program);
registerStatus(program);
registerApiKeys(program);
registerReplay(program);
registerReindex(program);
registerPartners(program);
registerMigrate(program);
registerReset(program);

/** A failure exits 1 (commander's refusals with their own code), reported as reportFailure says. */
program.parseAsync(process.argv).catch((failure: unknown) => {
  const error = explainedFailure(failure);
  const refused = error instanceof CommanderError;
  // help and --version end this way too, successfully
  if (refused && error.exitCode === 0) process.exit(0);
  const raw = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
  // a node's error (viem's) quotes its URL, whose path or user info may hold a provider's key
  reportFailure(raw, {
    onStderr: !refused,
    nodeUrls: [process.env['RPC_URL'], process.env['RPC_WS_URL'], readStateIfReadable().rpcUrl],
  });
  process.exit(refused ? error.exitCode : 1);
});
