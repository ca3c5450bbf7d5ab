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

/** `text` with each of `urls` (a node's, say, in an error message) shown as `displayedUrl` shows it. */
export function withUrlsHidden(text: string, urls: readonly (string | undefined)[]): string {
  return urls.reduce<string>((shown, url) => (url ? shown.split(url).join(displayedUrl(url)) : shown), text);
}

/**
 * A node's URL fit to print: providers put their API key in the path or the user info, so only the
 * scheme, host and port are shown (`…` marks what was left out). A local node's URL has nothing to hide.
 */
export function displayedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden =
      parsed.username !== '' || parsed.password !== '' || parsed.pathname.length > 1 || parsed.search !== '';
    return `${parsed.protocol}//${parsed.host}${hidden ? '/…' : ''}`;
  } catch {
    return '(unparseable URL)';
  }
}
