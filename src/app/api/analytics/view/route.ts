import { handleViewBeacon } from '@/server/features/analytics/view-endpoint';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request): Promise<Response> {
  return handleViewBeacon(request);
}
