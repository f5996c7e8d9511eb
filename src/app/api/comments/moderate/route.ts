import { moderationHandler } from '@/server/features/comments';

export const dynamic = 'force-dynamic';

const handle = moderationHandler();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
