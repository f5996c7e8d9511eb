import { settingsHandler } from '@/server/features/comments';

export const dynamic = 'force-dynamic';

const handle = settingsHandler();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
