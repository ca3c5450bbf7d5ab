/** Every command prints for people by default and one JSON document with `--json`, for scripts. */
export function print(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, bigintSafe, 2)}\n` : `${human()}\n`);
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
