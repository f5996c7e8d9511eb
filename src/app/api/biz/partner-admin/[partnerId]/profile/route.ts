import { handlePartnerProfilePost } from '@/server/features/partners/partner-admin-http';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ partnerId: string }> };

/** The partner dashboard's profile form (description, website, logo). */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { partnerId } = await params;
  return handlePartnerProfilePost(request, partnerId);
}
