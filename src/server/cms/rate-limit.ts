import 'server-only';
import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { type Db, queryRows } from '@/server/db/client';
import type { ApiKeyPrincipal } from './api-keys';
import { CmsApiError } from './errors';

/**
 * Per-key limits in one-second windows, counted in PostgreSQL so that every app instance
 * shares them (DESIGN.md: no shared state in process memory). The site's own in-process key
 * is exempt.
 */
export async function enforceRateLimit(
  db: Db,
  principal: ApiKeyPrincipal,
  kind: 'read' | 'write',
): Promise<void> {
  if (principal.internal) return;
  const limit = kind === 'read' ? env().CMS_RATE_LIMIT_READ : env().CMS_RATE_LIMIT_WRITE;
  const window = Math.floor(Date.now() / 1000);
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`INSERT INTO cms_rate_limits (key_id, kind, "window", count) VALUES (${principal.id}, ${kind}, ${window}, 1)
        ON CONFLICT (key_id, kind, "window") DO UPDATE SET count = cms_rate_limits.count + 1
        RETURNING count`,
  );
  // Old windows are useless after a second; sweep them now and then.
  if (Math.random() < 0.01)
    await db.execute(sql`DELETE FROM cms_rate_limits WHERE "window" < ${window - 60}`);
  const count = row?.count ?? 0;
  if (count > limit) {
    throw new CmsApiError(429, 'Too many requests, please try again later.', {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(window + 1),
    });
  }
}
