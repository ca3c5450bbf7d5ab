import pino from 'pino';
import { configuredUrls, displayedUrl, urlHidingHooks, withUrlsHidden } from './hidden-urls';

describe('displayedUrl', () => {
  it("shows a provider's URL without what may hold its key", () => {
    expect(displayedUrl('https://base-mainnet.g.alchemy.com/v2/SECRETKEY')).toBe(
      'https://base-mainnet.g.alchemy.com/…',
    );
    expect(displayedUrl('https://user:pass@rpc.example:8443')).toBe('https://rpc.example:8443/…');
    expect(displayedUrl('https://rpc.example/?apikey=SECRET')).toBe('https://rpc.example/…');
  });

  it("shows a local node's URL as it is", () => {
    expect(displayedUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(displayedUrl('http://127.0.0.1:8545/')).toBe('http://127.0.0.1:8545');
  });
});

describe('withUrlsHidden', () => {
  it('shows each node URL an error quotes as displayedUrl shows it, and leaves the rest of the text', () => {
    const url = 'https://base-mainnet.g.alchemy.com/v2/SECRETKEY';
    const message = `HTTP request failed.\n\nURL: ${url}\nRequest body: {"method":"eth_chainId"} (again: ${url})`;
    expect(withUrlsHidden(message, [url, undefined])).toBe(
      'HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/…\nRequest body: {"method":"eth_chainId"} ' +
        '(again: https://base-mainnet.g.alchemy.com/…)',
    );
    expect(withUrlsHidden('nothing to hide', [undefined, ''])).toBe('nothing to hide');
  });

  it('hides the URL also as a client prints it: without its user info, normalized, in any letter case', () => {
    const url = 'https://user:secretkey@rpc.example:8443/v2/SECRETKEY';
    for (const quoted of [
      'https://rpc.example:8443/v2/SECRETKEY',
      'https://user:secretkey@rpc.example:8443/v2/SECRETKEY',
      'HTTPS://RPC.EXAMPLE:8443/v2/SECRETKEY',
    ]) {
      expect(withUrlsHidden(`URL: ${quoted}\nDetails: fetch failed`, [url])).toBe(
        'URL: https://rpc.example:8443/…\nDetails: fetch failed',
      );
    }
    expect(withUrlsHidden('URL: http://127.0.0.1:1/v2/CASEKEY', ['HTTP://127.0.0.1:1/v2/CASEKEY'])).toBe(
      'URL: http://127.0.0.1:1/…',
    );
    expect(withUrlsHidden('URL: not a url/KEY', ['not a url/KEY'])).toBe('URL: (unparseable URL)');
    expect(withUrlsHidden('URL: https://rpc$&.example/v3/KEY', ['https://rpc$&.example/v3/KEY'])).toBe(
      'URL: https://rpc$&.example/…',
    );
    // a host with nothing to hide stays readable
    expect(withUrlsHidden('URL: http://127.0.0.1:8545/', ['http://127.0.0.1:8545'])).toBe(
      'URL: http://127.0.0.1:8545/',
    );
  });
});

describe('urlHidingHooks', () => {
  it("hides the configured URLs in every line a logger writes, an error's message and stack included", () => {
    const rpcUrl = 'https://base-mainnet.g.alchemy.com/v2/SECRETKEY';
    const urls = configuredUrls({
      RPC_URL: rpcUrl,
      DATABASE_URL: 'postgres://app:PASSWORD@db:5432/lottery',
      REDIS_URL: 'redis://:QUOTED"PASS@cache:6379',
      PORT: '3000',
      // another program's: no URL, nothing to hide (hidden, they would rewrite every line)
      BASE_URL: '/',
      CACHE_URL: 'redis',
    });
    expect(urls).toEqual([rpcUrl, 'postgres://app:PASSWORD@db:5432/lottery', 'redis://:QUOTED"PASS@cache:6379']);
    const lines: string[] = [];
    const logger = pino({ ...urlHidingHooks(urls) }, { write: (line: string) => void lines.push(line) });
    const error = new Error(`HTTP request failed.\n\nURL: ${rpcUrl}\nDetails: fetch failed`);
    logger.warn(
      { err: error, db: 'postgres://app:PASSWORD@db:5432/lottery', cache: 'redis://:QUOTED"PASS@cache:6379' },
      `calling ${rpcUrl}`,
    );
    const written = lines.join('');
    expect(written).not.toMatch(/SECRETKEY|PASSWORD|PASS@/);
    expect(JSON.parse(written)).toMatchObject({
      msg: 'calling https://base-mainnet.g.alchemy.com/…',
      db: 'postgres://db:5432/…',
      cache: 'redis://cache:6379/…',
      err: { message: 'HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/…\nDetails: fetch failed' },
    });
  });
});
