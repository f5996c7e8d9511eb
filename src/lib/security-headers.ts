/**
 * The headers every answer of the site carries, the front server's own answers included
 * (src/server/front/server.ts sets them first; next.config.ts gives them to `next dev`).
 */
export const SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

/** Under https only (a browser ignores it over http, and it must never pin a dev host). */
export const HSTS_HEADER = { key: 'Strict-Transport-Security', value: 'max-age=31536000' };

export function securityHeaders(secure: boolean): readonly { key: string; value: string }[] {
  return secure ? [...SECURITY_HEADERS, HSTS_HEADER] : SECURITY_HEADERS;
}
