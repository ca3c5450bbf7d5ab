import { withUrlsHidden } from '@lottery/telemetry';

/** Every command prints for people by default and one JSON document with `--json`, for scripts. */
export function print(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, bigintSafe, 2)}\n` : `${human()}\n`);
}

/**
 * A command's failure as every command reports it: `error: <message>` on stderr (unless commander has
 * printed its own refusal there already) and, with --json, `{"error"}` on stdout (start's event lines:
 * `{"event":"error","error"}`). The message is `message` with the node's URLs hidden.
 */
export function reportFailure(
  message: string,
  options: { onStderr: boolean; nodeUrls: readonly (string | undefined)[] },
): void {
  const shown = withUrlsHidden(message, options.nodeUrls);
  if (options.onStderr) process.stderr.write(`error: ${shown}\n`);
  if (process.argv.includes('--json')) {
    const failure = process.argv[2] === 'start' ? { event: 'error', error: shown } : { error: shown };
    process.stdout.write(`${JSON.stringify(failure)}\n`);
  }
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
