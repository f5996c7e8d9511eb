/**
 * Where to go after signing in (`/login?next=…`): a path on this site, or '/'.
 *
 * Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil.example` or
 * `/\evil.example` becomes `//evil.example`, another site. Rather than listing bad forms, the
 * value is resolved with the URL API against the site and kept only when it stays on the site;
 * anything with control characters or backslashes, before or after percent-decoding, is refused.
 */

export const NEXT_PATH_MAX = 2000;

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const looksOffSite = (text: string) =>
  CONTROL.test(text) || text.includes('\\') || text.startsWith('//');

export function safeNextPath(raw: unknown, siteUrl: string): string {
  if (typeof raw !== 'string' || raw.length > NEXT_PATH_MAX) return '/';
  // A path only: `https://…`, `http:evil`, `javascript:…` and relative forms are refused.
  if (!raw.startsWith('/')) return '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return '/';
  }
  // NFKC: full-width `／` and `＼` must not become a second slash anywhere down the line.
  for (const form of [raw, decoded, raw.normalize('NFKC'), decoded.normalize('NFKC')])
    if (looksOffSite(form)) return '/';

  let site: URL;
  let url: URL;
  try {
    site = new URL(siteUrl);
    url = new URL(raw, site);
  } catch {
    return '/';
  }
  if (url.origin !== site.origin || url.username !== '' || url.password !== '') return '/';
  // Dot segments are resolved here: `/.//evil.example` has become `//evil.example`.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !looksOffSite(path) ? path : '/';
}
