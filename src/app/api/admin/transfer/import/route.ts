import { transferRoutes } from '@/server/features/transfer/http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return transferRoutes.importArchive(request);
}
