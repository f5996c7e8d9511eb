import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Which organisation domain an address is at (docs/decisions/058-organizations.md): the part
 * after its last `@`, compared whole with the allowed domains. No subdomain, parent or suffix
 * matches (`corp.example.evil`, `evilcorp.example`, `mail.corp.example` are not `corp.example`);
 * ASCII letters compare without case. A domain written in other letters counts only in its one
 * canonical form: its punycode (`xn--…`) or the Unicode that punycode reads back to. A form that
 * IDNA would map onto an ASCII domain (full-width letters, a trailing dot, a look-alike from
 * another script) is another domain, never the company's.
 */

const ASCII_DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** An allowed domain as staff typed it, as stored (lower-case ASCII), or null: not a domain. */
export function normalizeAllowedDomain(input: string): string | null {
  const typed = input.trim().replace(/^@/, '');
  return canonicalDomain(typed);
}

/** The domain part of a confirmed address, canonical (see above), or null. */
export function addressDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  return canonicalDomain(email.slice(at + 1));
}

function canonicalDomain(domain: string): string | null {
  if (/^[\x21-\x7e]+$/.test(domain)) {
    const lower = domain.toLowerCase();
    return ASCII_DOMAIN.test(lower) ? lower : null;
  }
  const nfc = domain.normalize('NFC');
  const ascii = domainToASCII(nfc);
  // Only the form IDNA reads back: anything it maps (width, case, compatibility) is refused.
  if (!ascii || !ASCII_DOMAIN.test(ascii) || domainToUnicode(ascii) !== nfc) return null;
  return ascii;
}
