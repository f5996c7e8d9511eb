import 'server-only';
import { env } from '@/env';

/**
 * The header the front server's pipeline (src/server/features/front/pipeline.ts) sets to the client's
 * address, under `npm start` and `npm run dev` alike, after dropping whatever a client sent
 * (docs/decisions/046-one-request-pipeline.md says why this one stays a request header). Absent
 * only when a handler is called without the front server (`next start`, a test): limits by
 * address are then off.
 */
export const CLIENT_IP_HEADER = 'x-axis-client-ip';

export function clientIp(headers: Headers): string | null {
  return headers.get(CLIENT_IP_HEADER);
}

/**
 * CSRF check for state-changing requests: a browser sends Origin with every POST, so one from
 * another site (or an opaque `null` origin) is refused. Requests without Origin come from
 * non-browser clients, which cannot carry a visitor's cookies against their will.
 */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return request.headers.get('sec-fetch-site') !== 'cross-site';
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === request.headers.get('host') || host === new URL(env().SITE_URL).host;
}
