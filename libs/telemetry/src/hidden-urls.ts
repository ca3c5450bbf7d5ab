import type { LoggerOptions } from 'pino';

/**
 * `text` with each of `urls` (a node's, say, in an error message) shown as `displayedUrl` shows it. A
 * client may quote a URL otherwise than it was configured: without its user info (viem), normalized
 * (the scheme and host in lower case, a `/` path), so each of those forms is hidden too, in any case.
 */
export function withUrlsHidden(text: string, urls: readonly (string | undefined)[]): string {
  return urlHider(urls)(text);
}

/** `withUrlsHidden` for these `urls`, its patterns built once (a logger hides them in every line). */
function urlHider(urls: readonly (string | undefined)[]): (text: string) => string {
  const hiders = urls.flatMap((url) => {
    // a local node's URL has nothing to hide, and is left as it is quoted
    if (!url || displayedUrl(url) === url.replace(/\/$/, '')) return [];
    const forms = [...quotedForms(url)].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const pattern = new RegExp(forms.join('|'), 'gi');
    const shown = displayedUrl(url);
    // a function: a replacement string would expand the `$&` a URL may hold
    return [(text: string) => text.replace(pattern, () => shown)];
  });
  return (text) => hiders.reduce((hidden, hide) => hide(hidden), text);
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
  // a log line is JSON: a `"` or `\\` in a password is written escaped
  for (const form of [...forms]) forms.add(JSON.stringify(form).slice(1, -1));
  forms.delete('');
  return forms;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A node's URL fit to print or log: providers put their API key in the path, the query or the user info,
 * so only the scheme, host and port are shown (`…` marks what was left out). A local node's URL has
 * nothing to hide.
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

/**
 * The URLs this process was configured with (every `*_URL` variable: RPC_URL, RPC_WS_URL, DATABASE_URL,
 * REDIS_URL…), which its logs must not quote: a client's error (viem's) quotes the URL it called, path
 * and all, and a provider's key with it.
 */
export function configuredUrls(env: NodeJS.ProcessEnv = process.env): string[] {
  // only real URLs, with a host: another program's `BASE_URL=/` or `X_URL=redis` is no secret, and hiding
  // it would rewrite every line
  return Object.entries(env).flatMap(([name, value]) =>
    name.endsWith('_URL') && value && hasHost(value) ? [value] : [],
  );
}

function hasHost(value: string): boolean {
  try {
    return new URL(value).host !== '';
  } catch {
    return false;
  }
}

/** pino options that write every log line with `urls` hidden as `withUrlsHidden` hides them. */
export function urlHidingHooks(urls: readonly string[] = configuredUrls()): Pick<LoggerOptions, 'hooks'> {
  return { hooks: { streamWrite: urlHider(urls) } };
}
