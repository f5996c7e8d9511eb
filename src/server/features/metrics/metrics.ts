import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { singleton } from '@/lib/singleton';

/**
 * The process's Prometheus metrics (prom-client), one registry however many times this module
 * is loaded (the front server and the framework's route bundles each load it). Served by
 * GET /api/metrics (src/app/api/metrics) to staff or with METRICS_TOKEN.
 */

/** Distinct route labels kept; past it a new route counts as `other`, so labels stay bounded. */
const MAX_ROUTES = 200;

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry }); // memory, CPU, event-loop lag, GC
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and method.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    pageCache: new Counter({
      name: 'page_cache_lookups_total',
      help: 'Lookups of the front server’s page cache, by result (hit or miss).',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    /** Filled at scrape time by whoever owns the figure (onScrape). */
    gauges: new Map<string, Gauge>(),
    scrapers: [] as (() => Promise<void> | void)[],
    routes: new Set<string>(),
  };
}

const metrics = () => singleton('metrics', create);

/**
 * The route pattern of a path, for labels: static words kept, anything that looks like an id
 * (digits, long or mixed tokens, encoded characters) becomes `:id`, and the query dropped.
 */
export function routeLabel(url: string): string {
  const path = url.split('?', 1)[0] ?? '/';
  const segments = path
    .split('/')
    .filter(Boolean)
    .slice(0, 6)
    .map((segment) => (/^[a-z][a-z-]{0,29}$/.test(segment) ? segment : ':id'));
  const label = `/${segments.join('/')}`;
  const { routes } = metrics();
  if (routes.has(label)) return label;
  if (routes.size >= MAX_ROUTES) return 'other';
  routes.add(label);
  return label;
}

/** Call when a request starts; the returned function records it once answered. */
export function timeRequest(method: string, url: string): (status: number) => void {
  const end = metrics().duration.startTimer();
  return (status) => {
    const route = routeLabel(url);
    const m = method.length <= 10 ? method : 'other';
    end({ route, method: m });
    metrics().requests.inc({ route, method: m, status: String(status) });
  };
}

/** `stale`: the previous version of a page, served while one render renews it. */
export function countPageCache(result: 'hit' | 'stale' | 'miss'): void {
  metrics().pageCache.inc({ result });
}

/** A gauge whose value is read when Prometheus scrapes. */
export function gaugeOnScrape(
  name: string,
  help: string,
  labelNames: readonly string[],
  read: (gauge: Gauge) => Promise<void> | void,
): void {
  const m = metrics();
  if (m.gauges.has(name)) return;
  const gauge = new Gauge({ name, help, labelNames: [...labelNames], registers: [m.registry] });
  m.gauges.set(name, gauge);
  m.scrapers.push(() => read(gauge));
}

/** The exposition text, after every on-scrape gauge has been read. */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  await Promise.all(
    m.scrapers.map(async (scrape) => {
      try {
        await scrape();
      } catch (error) {
        console.error('[metrics] a gauge could not be read:', error);
      }
    }),
  );
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
