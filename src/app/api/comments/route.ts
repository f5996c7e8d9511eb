import { handleCommentCreate, handleCommentsGet } from '@/server/features/comments';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return handleCommentsGet(request);
}

export async function POST(request: Request): Promise<Response> {
  return handleCommentCreate(request);
}
