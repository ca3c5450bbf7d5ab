import { displayedUrl, withUrlsHidden } from './output';

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
});
