import { displayedUrl } from './output';

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
