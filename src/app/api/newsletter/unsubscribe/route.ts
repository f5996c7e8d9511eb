import { handleUnsubscribePost } from '@/server/features/newsletter/unsubscribe-http';

export const dynamic = 'force-dynamic';

/** POST /newsletter/unsubscribe lands here (src/server/features/front/request-guard.ts servedUrl). */
export async function POST(request: Request): Promise<Response> {
  return handleUnsubscribePost(request);
}
