import { metricsHandler } from '@/server/metrics/http';

export const dynamic = 'force-dynamic';

export const GET = metricsHandler();
