import 'server-only';
import ipaddr from 'ipaddr.js';
import { rememberLast } from '@/lib/remember-last';

/**
 * The one reading of a client's address, for the front server that hands it on
 * (`clientAddress`) and every limit that counts by it (`addressKey`: sign-in and account
 * flows, the forms behind `endpoint`, search). Parsing is ipaddr.js's, not ours: an
 * IPv4-mapped IPv6 address is its IPv4 address, a zone id is dropped, white space around it
 * is ignored, and anything else unreadable (brackets, a port, IPv4 in short, octal or
 * hexadecimal forms, which no socket gives) is `unknown`, so that garbage never makes a bucket
 * of its own.
 */

export const UNKNOWN_ADDRESS = 'unknown';

/** The address `text` spells, IPv4 where it is one; null when it spells none. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = text.trim();
  // ipaddr.js also reads IPv4 in short, octal and hexadecimal forms; a socket never gives those.
  if (ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return ipaddr.IPv4.parse(trimmed);
  if (!ipaddr.IPv6.isValid(trimmed)) return null;
  const address = ipaddr.IPv6.parse(trimmed);
  // A new address from the parts alone: the zone id names an interface of the host that saw it.
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : new ipaddr.IPv6(address.parts);
}

/**
 * One spelling of the address `text` spells, or UNKNOWN_ADDRESS. Remembered: every request
 * is read once, from a handful of peers (a proxy, a load balancer), and parsing was the front
 * server's largest cost of its own under load.
 */
const spelling = rememberLast(256, (text) => parseAddress(text)?.toString() ?? UNKNOWN_ADDRESS);

/**
 * The client's address as the front server hands it on: the peer's, or behind a trusted
 * proxy the last X-Forwarded-For entry (the one that proxy added; any before it are the
 * client's own claims). One spelling for each address (`::ffff:127.0.0.1` is `127.0.0.1`,
 * IPv6 in its shortest form); UNKNOWN_ADDRESS when there is no readable one.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trustProxy: boolean,
): string {
  const list = typeof forwardedFor === 'string' ? forwardedFor : (forwardedFor ?? []).join(',');
  const last = list.split(',').at(-1)?.trim();
  return spelling((trustProxy && last) || peer || '');
}

/**
 * The key a limit by address counts under: an IPv4 address as it is, an IPv6 address as its
 * /64 network (one host usually holds a whole /64, so counting single addresses would count
 * nothing). Null when there is no address at all (a handler called without the front server).
 */
export function addressKey(ip: string | null | undefined): string | null {
  if (ip === null || ip === undefined) return null;
  const address = parseAddress(ip);
  if (!address) return UNKNOWN_ADDRESS;
  if (address.kind() === 'ipv4') return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${network.toString()}/64`;
}
