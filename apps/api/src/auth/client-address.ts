import ipaddr from 'ipaddr.js';

/**
 * The anonymous rate-limit subject of a client address: one budget per IPv4 address (also when it
 * arrives IPv4-mapped, `::ffff:a.b.c.d`) and one per IPv6 /64, the block a single subscriber is given:
 * keyed by the full IPv6 address, one client would have 2^64 budgets to spend.
 */
export function clientAddressSubject(ip: string): string {
  if (!ipaddr.isValid(ip)) return `ip:${ip}`;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return `ip:${address.toString()}`;
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `ip:${network.join(':')}::/64`;
}
