import { handleProviderStart } from '@/server/features/account/account-http';
import { paramRoute } from '@/server/platform/http/param-route';

export const dynamic = 'force-dynamic';

/** A provider button on /login (LINE, Google): sends the reader to the provider. */
export const POST = paramRoute('provider', (request, provider) =>
  handleProviderStart(request, provider),
);
