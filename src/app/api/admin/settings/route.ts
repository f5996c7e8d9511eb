import { settingsRoutes } from '@/server/features/admin/settings-http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return settingsRoutes.update(request);
}
