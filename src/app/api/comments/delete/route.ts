import { handleCommentAction } from '@/server/features/comments';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleCommentAction('delete', request);
}
