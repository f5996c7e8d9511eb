import { listingPostHandler } from '@/server/features/partners/jobs/listings-http';

export const dynamic = 'force-dynamic';

/** A new listing from /jobs/post (save, preview or submit). */
export async function POST(request: Request): Promise<Response> {
  return listingPostHandler(null)(request);
}
