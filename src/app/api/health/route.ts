import { getDb, pingDatabase } from '@/server/platform/db/client';
import { checkHealth } from '@/server/platform/health/health';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const { httpStatus, body } = await checkHealth(async () => pingDatabase(await getDb()));
  return Response.json(body, { status: httpStatus, headers: { 'Cache-Control': 'no-store' } });
}
