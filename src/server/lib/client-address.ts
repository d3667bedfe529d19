import { isIPv6 } from 'node:net';

/**
 * The key the login throttle counts a client by: an IPv4 address as it is, an IPv6 address by its
 * /64 network (DESIGN §7), since one subscriber is usually handed a whole /64 and could otherwise
 * take a fresh address for every guess.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail takes two groups; it never reaches the first four.
  const width = right.some((group) => group.includes('.')) ? right.length + 1 : right.length;
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - width)).fill('0'), ...right]
    : left;
  const network = groups.slice(0, 4).map((group) => (Number.parseInt(group, 16) || 0).toString(16));
  return `${network.join(':')}::/64`;
}
