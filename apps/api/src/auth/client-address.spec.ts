import { clientAddressSubject } from './client-address';

describe('clientAddressSubject', () => {
  it('gives an IPv4 client one budget, however its address arrives', () => {
    expect(clientAddressSubject('198.51.100.7')).toBe('ip:198.51.100.7');
    expect(clientAddressSubject('::ffff:198.51.100.7')).toBe('ip:198.51.100.7');
  });

  it('gives every address of an IPv6 /64 one budget, and another /64 its own', () => {
    const subjects = ['2001:db8:1:2::1', '2001:db8:1:2:ffff::3', '2001:DB8:1:2:0:0:0:9'].map(clientAddressSubject);
    expect(new Set(subjects)).toEqual(new Set(['ip:2001:db8:1:2::/64']));
    expect(clientAddressSubject('2001:db8:1:3::1')).toBe('ip:2001:db8:1:3::/64');
  });
});
