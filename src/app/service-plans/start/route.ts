import { handleCheckoutIntentStart } from '@/server/features/billing/billing-http';

export const dynamic = 'force-dynamic';

/** The confirmation mail's link ends here: the checkout the reader chose before signing up. */
export async function GET(request: Request): Promise<Response> {
  return handleCheckoutIntentStart(request);
}
