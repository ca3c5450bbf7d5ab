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

/**
 * `text` with each of `urls` (a node's, say, in an error message) shown as `displayedUrl` shows it. A
 * client may quote a URL otherwise than it was configured: without its user info (viem), normalized
 * (the scheme and host in lower case, a `/` path), so each of those forms is hidden too, in any case.
 */
export function withUrlsHidden(text: string, urls: readonly (string | undefined)[]): string {
  return urls.reduce<string>((shown, url) => {
    // a local node's URL has nothing to hide, and is left as it is quoted
    if (!url || displayedUrl(url) === url.replace(/\/$/, '')) return shown;
    const forms = [...quotedForms(url)].sort((a, b) => b.length - a.length).map(escapeRegExp);
    // a function: a replacement string would expand the `$&` a URL may hold
    return shown.replace(new RegExp(forms.join('|'), 'gi'), () => displayedUrl(url));
  }, text);
}

function quotedForms(url: string): Set<string> {
  const forms = new Set([url]);
  try {
    const parsed = new URL(url);
    forms.add(parsed.href);
    parsed.username = '';
    parsed.password = '';
    forms.add(parsed.href);
  } catch {
    // unparseable: hidden as configured only
  }
  // a bare origin's href gains a `/`; the form without it is quoted too
  for (const form of [...forms]) if (form.endsWith('/')) forms.add(form.slice(0, -1));
  return forms;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
