import { handleCheckoutReturn } from '@/server/features/billing/billing-http';

export const dynamic = 'force-dynamic';

/** The provider's success_url: the checkout applied, then back to the article (or the page). */
export async function GET(request: Request): Promise<Response> {
  return handleCheckoutReturn(request);
}
