import {
  handleBookmarksGet,
  handleBookmarksPost,
} from '@/server/features/bookmarks/bookmarks-http';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return handleBookmarksGet(request);
}

export async function POST(request: Request): Promise<Response> {
  return handleBookmarksPost(request);
}
