import type { AppName } from './deployable-apps';

/** One container (or compose service) running one of the apps, with its environment resolved. */
export interface AppRunner {
  where: string;
  app: AppName;
  /** node's arguments before the entry point (after the image's `node -r ./tools/register.js`). */
  nodeArgs: string[];
  /** name → value (undefined when not known statically, e.g. a fieldRef). */
  env: Map<string, string | undefined>;
}

/**
 * A URL in some runner's PIPELINE_READY_URLS, and the app runner it reaches with the URL as that runner
 * sees it (a Service port becomes the container port); no target when it reaches no app.
 */
export interface ReadyUrl {
  where: string;
  url: string;
  target?: { runner: AppRunner; url: string };
}

export function pipelineReadyUrlsOf(runner: AppRunner): string[] {
  return (runner.env.get('PIPELINE_READY_URLS') ?? '').split(',').filter(Boolean);
}

/** The words of a command before its entry point (the first `.ts` word), and that entry. */
export function splitAtEntry(argv: readonly string[]): { nodeArgs: string[]; entry?: string } {
  const at = argv.findIndex((a) => a.endsWith('.ts'));
  return at < 0 ? { nodeArgs: [...argv] } : { nodeArgs: argv.slice(0, at), entry: argv[at] };
}
