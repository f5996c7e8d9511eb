import { handleBusinessCsv } from '@/server/features/analytics/business-csv-route';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(request: Request): Promise<Response> {
  return handleBusinessCsv(request);
}
