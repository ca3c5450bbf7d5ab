import { apikeyCredential } from './apikey-credential';

describe('apikeyCredential', () => {
  it('reads the apikey header, else the apikey query parameter', () => {
    expect(apikeyCredential({ headers: { apikey: 'h' }, query: { apikey: 'q' } })).toBe('h');
    expect(apikeyCredential({ headers: {}, query: { apikey: 'q' } })).toBe('q');
    expect(apikeyCredential({ headers: { apikey: '' }, query: { apikey: 'q' } })).toBe('q');
  });

  it('treats a missing, empty or repeated key as none', () => {
    expect(apikeyCredential({ headers: {}, query: {} })).toBeNull();
    expect(apikeyCredential({ headers: { apikey: '' }, query: {} })).toBeNull();
    expect(apikeyCredential({ headers: { apikey: ['a', 'b'] }, query: { apikey: 'q' } })).toBeNull();
    expect(apikeyCredential({ headers: {}, query: { apikey: ['a', 'b'] } })).toBeNull();
    expect(apikeyCredential({ headers: { apikey: ['a', 'b'] }, query: {} })).toBeNull();
  });
});
