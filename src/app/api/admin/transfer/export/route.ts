import { transferRoutes } from '@/server/features/transfer/http';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return transferRoutes.exportArchive(request);
}
