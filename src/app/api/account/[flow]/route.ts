import { handleAccountPost } from '@/server/identity/account-http';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ flow: string }> },
): Promise<Response> {
  return handleAccountPost(request, (await params).flow);
}
