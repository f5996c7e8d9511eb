import type { ApiPermission } from '@/lib/cms/api-key-permissions';
import { clearApiKeyCache, createApiKey } from '@/server/services/cms/api-keys';
import { handleContentApi } from '@/server/services/cms/http';
import type { Db } from '@/server/platform/db/client';

/** Test helpers: a client of the content API handler with a real key on a test database. */
export type ApiCall = (
  method: string,
  path: string,
  options?: { body?: unknown; rawBody?: string; key?: string | null },
) => Promise<{ status: number; body: unknown; text: string; headers: Headers }>;

export async function apiClient(
  db: Db,
  permissions: ApiPermission[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
) {
  clearApiKeyCache();
  const { key } = await createApiKey(db, { name: `test ${permissions.join(',')}`, permissions });
  const call: ApiCall = async (method, path, options = {}) => {
    const url = new URL(path, 'http://localhost/api/v1/');
    const [endpoint, contentId] = url.pathname.replace(/^\/api\/v1\//, '').split('/');
    const headers = new Headers({ 'content-type': 'application/json' });
    const useKey = options.key === undefined ? key : options.key;
    if (useKey !== null) headers.set('X-MICROCMS-API-KEY', useKey);
    const body =
      options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await handleContentApi(
      new Request(url, { method, headers, body }),
      decodeURIComponent(endpoint ?? ''),
      contentId === undefined ? undefined : decodeURIComponent(contentId),
      db,
    );
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  return { key, call };
}
