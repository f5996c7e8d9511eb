import { handleProviderStart } from '@/server/identity/account-http';

export const dynamic = 'force-dynamic';

/** A provider button on /login (LINE, Google): sends the reader to the provider. */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ provider: string }> },
): Promise<Response> {
  return handleProviderStart(request, (await params).provider);
}
