import { handleGuestCheckoutStart } from '@/server/features/billing/billing-http';

export const dynamic = 'force-dynamic';

/** The final confirmation screen of a visitor: the address, the plan, the consent. */
export async function POST(request: Request): Promise<Response> {
  return handleGuestCheckoutStart(request);
}
