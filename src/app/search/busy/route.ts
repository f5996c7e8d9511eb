import { searchBusyResponse } from '@/server/features/search/search-limit';

export const dynamic = 'force-dynamic';

/** Where /search sends a client over its search limit: 429 with a Japanese message. */
export function GET(request: Request): Response {
  return searchBusyResponse(new URL(request.url));
}
