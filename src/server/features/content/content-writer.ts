import 'server-only';
import { AppError } from '@/lib/errors';
import { env } from '@/env';
import { singleton } from '@/lib/singleton';
import { internalWriterApiKey } from '@/server/services/cms/api-keys';
import type { Db } from '@/server/platform/db/client';
import { type ContentClient, createContentClient } from './client';
import { BUILT_IN_BASE, inProcessFetch } from './site-content';

/**
 * What the app itself writes to the content service: a partner's approved job listing and a
 * partner's public profile. The same client and API as every read (microCMS's write API), so
 * it works unchanged against a hosted microCMS given CMS_WRITE_API_KEY; on the built-in
 * service it goes through the in-process handler with the process's writer key, and the
 * service's change events refresh every cached page that shows the item.
 */

export class ContentWriteUnavailableError extends AppError {
  constructor() {
    super(
      'コンテンツサービスへ書き込むための API キー (CMS_WRITE_API_KEY) が設定されていません。',
      {
        status: 503,
        code: 'content-write-unavailable',
      },
    );
    this.name = 'ContentWriteUnavailableError';
  }
}

/** Tests pass their database; the app uses the process's one. */
export function createContentWriter(options: { db?: Db } = {}): ContentClient {
  const { CMS_BASE_URL, CMS_WRITE_API_KEY } = env();
  if (CMS_BASE_URL) {
    if (!CMS_WRITE_API_KEY) throw new ContentWriteUnavailableError();
    return createContentClient({ baseUrl: CMS_BASE_URL, apiKey: CMS_WRITE_API_KEY, retry: true });
  }
  return createContentClient({
    baseUrl: BUILT_IN_BASE,
    apiKey: internalWriterApiKey(),
    fetch: inProcessFetch(options.db),
  });
}

export function contentWriter(): ContentClient {
  return singleton('content-writer', () => createContentWriter());
}
