import 'server-only';
import { singleton } from '@/lib/singleton';
import { env } from '@/env';
import { internalApiKey } from '@/server/services/cms/api-keys';
import { answerValue, handleContentApi, readContentInProcess } from '@/server/services/cms/http';
import type { Db } from '@/server/platform/db/client';
import { type ContentClient, createContentClient } from './client';
import { createReadCache } from './read-cache';

/**
 * The content client every page reads through. With CMS_BASE_URL it talks to that service
 * (a hosted microCMS) over HTTP with CMS_API_KEY, behind a read cache; otherwise it calls the
 * built-in service in process, with the process's own key, through the same checks, errors
 * and cache (src/server/services/cms/http.ts) as over HTTP: its reads without a Request or JSON
 * (readContentInProcess), its writes through the same handler as a Request.
 */

export const BUILT_IN_BASE = 'http://built-in.invalid/api/v1';
const HOSTED_TTL_MS = 60_000;

export function inProcessFetch(db: Db | undefined): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const [endpoint, contentId] = new URL(request.url).pathname
      .replace(/^\/api\/v1\//, '')
      .split('/');
    return handleContentApi(
      request,
      decodeURIComponent(endpoint ?? ''),
      contentId === undefined ? undefined : decodeURIComponent(contentId),
      db,
    );
  };
}

/** The built-in service's reads in process: its answer's frozen value, or its error answer. */
export function inProcessReads(db: Db | undefined, apiKey: string) {
  return async (endpoint: string, contentId: string | undefined, query: string) => {
    const answer = await readContentInProcess(apiKey, endpoint, contentId, query, db);
    if (answer instanceof Response) return answer;
    return { value: answerValue(answer), reads: answer.reads, derived: answer.derived };
  };
}

export type SiteContent = { client: ContentClient; dispose: () => void };

/** Tests pass their database; the app uses the process's one (siteContent()). */
export function createSiteContent(options: { db?: Db } = {}): SiteContent {
  const { CMS_BASE_URL, CMS_API_KEY } = env();
  if (CMS_BASE_URL && CMS_API_KEY) {
    const cache = createReadCache(globalThis.fetch.bind(globalThis), { ttlMs: HOSTED_TTL_MS });
    return {
      client: createContentClient({
        baseUrl: CMS_BASE_URL,
        apiKey: CMS_API_KEY,
        retry: true,
        fetch: cache.fetch,
      }),
      dispose: () => cache.clear(),
    };
  }
  const apiKey = internalApiKey();
  return {
    client: createContentClient({
      baseUrl: BUILT_IN_BASE,
      apiKey,
      fetch: inProcessFetch(options.db),
      readInProcess: inProcessReads(options.db, apiKey),
    }),
    dispose: () => {},
  };
}

export function siteContent(): ContentClient {
  return singleton('site-content', () => createSiteContent()).client;
}

/** Whether the site reads the built-in service (drafts and preview keys are then local). */
export function usesBuiltInContent(): boolean {
  return !env().CMS_BASE_URL;
}
