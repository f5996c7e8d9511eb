import 'server-only';
import { env } from '@/env';
import { getDatabase } from '@/server/platform/db/client';
import { notFoundAnswer } from '@/server/platform/http/form-endpoint';
import { isStaff, userFromHeaders, type ViewerOption } from '@/server/features/identity';
import { registerAppGauges } from './app-gauges';
import { scrapeMetrics } from './metrics';
import { sameSecret } from '@/server/platform/security/signing';

/**
 * GET /api/metrics: the Prometheus exposition, for a scraper with `Authorization: Bearer
 * METRICS_TOKEN` or a signed-in staff member. Anyone else gets the site's bare 404, as every
 * staff route does.
 */

export type MetricsOptions = ViewerOption & {
  /** Tests: the token. */
  token?: string;
};

export function metricsHandler(options: MetricsOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const token = options.token ?? env().METRICS_TOKEN;
    const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    const byToken = !!token && !!presented && sameSecret(presented, token);
    if (!byToken && !isStaff(await (options.viewer ?? userFromHeaders)(request.headers)))
      return notFoundAnswer(request);
    registerAppGauges(getDatabase);
    const { contentType, body } = await scrapeMetrics();
    return new Response(body, {
      headers: { 'content-type': contentType, 'cache-control': 'private, no-store' },
    });
  };
}
