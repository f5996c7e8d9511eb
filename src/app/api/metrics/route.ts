import { metricsHandler } from '@/server/features/metrics/http';

export const dynamic = 'force-dynamic';

export const GET = metricsHandler();
