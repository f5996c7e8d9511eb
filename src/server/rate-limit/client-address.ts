import 'server-only';
import ipaddr from 'ipaddr.js';

/**
 * The one key every limit by client address counts under (sign-in and account flows, the
 * forms behind `endpoint`, search). Parsing is ipaddr.js's, not ours: an IPv4-mapped IPv6
 * address is its IPv4 address, an IPv6 address counts as its /64 network (one host usually
 * holds a whole /64, so counting single addresses would count nothing), a zone id is ignored,
 * and anything unreadable shares one bucket so that garbage never escapes the limits.
 */

export const UNKNOWN_ADDRESS = 'unknown';

/** Null when there is no address at all (no front server, as under `next dev`). */
export function addressKey(ip: string | null | undefined): string | null {
  if (ip === null || ip === undefined) return null;
  const text = ip.trim();
  // ipaddr.js also reads IPv4 in short, octal and hexadecimal forms; a socket never gives those.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text).toString();
  if (!ipaddr.IPv6.isValid(text)) return UNKNOWN_ADDRESS;
  const address = ipaddr.IPv6.parse(text);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${network.toString()}/64`;
}
