import { listingPostHandler } from '@/server/features/partners/jobs/listings-http';

export const dynamic = 'force-dynamic';

/** One listing's form posts from /jobs/post?listing={id} (save, preview, submit, close). */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await params;
  return listingPostHandler(id)(request);
}
