import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearApiKeyCache, createApiKey } from '@/server/services/cms/api-keys';
import { handleContentApi } from '@/server/services/cms/http';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { type Database, queryRows } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { storageKeyOfUrl } from '../archive-format';
import { resetTransferState } from '../progress';
import { startMicroCmsImport } from '../service';
import { contentApiAnswers } from '@test-support/content-api-answers';
import { testWorkDir } from '@test-support/route-tests';

// The source instance lets a key read 4 requests a second: the import must pace and back off.
process.env.CMS_RATE_LIMIT_READ = '4';
const tmp = testWorkDir('transfer-microcms');

/**
 * A second instance of this app as the "hosted microCMS": its content API route handler on a
 * local port, and its uploads served as microCMS's asset CDN serves files (by URL, no key).
 */
function serveInstance(database: Database, storage: FileSystemStorage) {
  const seen = { requests: 0, tooMany: 0, keys: new Set<string>() };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let response: Response;
      const api = /^\/api\/v1\/([^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
      if (api) {
        seen.requests++;
        const key = req.headers['x-microcms-api-key'];
        if (typeof key === 'string') seen.keys.add(key);
        response = await handleContentApi(
          new Request(url, {
            method: req.method,
            headers: typeof key === 'string' ? { 'x-microcms-api-key': key } : {},
          }),
          decodeURIComponent(api[1]!),
          api[2] === undefined ? undefined : decodeURIComponent(api[2]),
          database.db,
        );
        if (response.status === 429) seen.tooMany++;
      } else {
        if (req.headers['x-microcms-api-key']) throw new Error('the key went to the asset host');
        const key = storageKeyOfUrl(url.pathname);
        const object = key ? await storage.get(key) : null;
        response = object ? new Response(object.body) : new Response('not found', { status: 404 });
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  return { server, seen };
}

/** Every URL of ours in an answer replaced through `map`. */
function withUrls(answer: unknown, map: Record<string, string>): unknown {
  return JSON.parse(
    JSON.stringify(answer).replace(/\/(?:uploads|media)\/[a-z0-9_./-]+/g, (url) => map[url] ?? url),
  );
}

describe('import from a hosted microCMS (another instance of this app)', () => {
  let source: Database;
  let target: Database;
  const sourceStorage = new FileSystemStorage(path.join(tmp, 'source-uploads'));
  const targetStorage = new FileSystemStorage(path.join(tmp, 'target-uploads'));
  let baseUrl = '';
  let apiKey = '';
  let instance: ReturnType<typeof serveInstance>;

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    await seedDemoContent(source.db);
    await copyDemoMedia(sourceStorage.root);
    clearApiKeyCache();
    apiKey = (await createApiKey(source.db, { name: 'migration', permissions: ['GET'] })).key;
    instance = serveInstance(source, sourceStorage);
    await new Promise<void>((resolve) => instance.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(instance.server.address() as AddressInfo).port}/api/v1`;
    resetTransferState();
  });

  afterAll(async () => {
    instance?.server.close();
    await Promise.all([source?.close(), target?.close()]);
  });

  it('refuses a wrong key with a Japanese message and writes nothing', async () => {
    const { done } = startMicroCmsImport(
      target.db,
      targetStorage,
      { baseUrl, apiKey: 'wrong-key', client: { requestsPerSecond: 50 } },
      { actor: 'user:admin' },
    );
    const status = await done;
    expect(status.phase).toBe('failed');
    expect(status.error).toMatch(/API キーを受け付けませんでした \(401\)/);
    const [count] = await queryRows<{ n: number }>(
      target.db,
      sql`SELECT count(*)::int AS n FROM cms_contents`,
    );
    expect(count!.n).toBe(0);
  });

  it('imports every endpoint page by page, backing off on 429, with the same API answers and files', async () => {
    const before = instance.seen.tooMany;
    const { status: started, done } = startMicroCmsImport(
      target.db,
      targetStorage,
      // Faster than the source allows, so that it answers 429 and the import must wait.
      { baseUrl, apiKey, client: { requestsPerSecond: 40 } },
      { actor: 'user:admin', ip: '127.0.0.1' },
    );
    expect(started.kind).toBe('microcms');
    const status = await done;
    expect(status.error).toBeNull();
    expect(status.phase).toBe('done');
    expect(instance.seen.tooMany - before).toBeGreaterThan(0);
    expect(status.result?.contents.posts).toBeGreaterThan(10);
    expect(status.result?.media).toBeGreaterThan(10);
    expect(status.items.done).toBe(status.items.total);
    expect(status.media.done).toBe(status.media.total);

    // The same published answers, but for the media addresses, which are now ours.
    const [sourceAnswers, targetAnswers] = await Promise.all([
      contentApiAnswers(source.db),
      contentApiAnswers(target.db),
    ]);
    const ourUrls = new Map<string, string>();
    const sourceText = JSON.stringify(sourceAnswers.published);
    const targetText = JSON.stringify(targetAnswers.published);
    const sourceUrls = sourceText.match(/\/(?:uploads|media)\/[a-z0-9_./-]+/g) ?? [];
    const targetUrls = targetText.match(/\/(?:uploads|media)\/[a-z0-9_./-]+/g) ?? [];
    expect(targetUrls.length).toBe(sourceUrls.length);
    sourceUrls.forEach((url, i) => ourUrls.set(url, targetUrls[i]!));
    expect(targetAnswers.published).toEqual(
      withUrls(sourceAnswers.published, Object.fromEntries(ourUrls)),
    );
    // Every file came over byte for byte, under a new key of ours.
    for (const [theirs, ours] of ourUrls) {
      expect(ours).not.toBe(theirs);
      expect(fs.readFileSync(targetStorage.pathOf(storageKeyOfUrl(ours)!))).toEqual(
        fs.readFileSync(sourceStorage.pathOf(storageKeyOfUrl(theirs)!)),
      );
    }
    const [media] = await queryRows<{ n: number }>(
      target.db,
      sql`SELECT count(*)::int AS n FROM cms_media`,
    );
    expect(media!.n).toBe(new Set(ourUrls.values()).size);

    // The audit names the host, never the key.
    const audits = await queryRows<{ action: string; actor: string; detail: unknown }>(
      target.db,
      sql`SELECT action, actor, detail FROM audit_events WHERE action = 'content-imported'`,
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actor).toBe('user:admin');
    expect(JSON.stringify(audits[0]!.detail)).toContain('127.0.0.1');
    expect(JSON.stringify(audits)).not.toContain(apiKey);
    expect(JSON.stringify(status)).not.toContain(apiKey);
    // Copies the whole demo site through the API and the file host: about 15 s on an idle
    // machine, over the default 60 s when the machine is loaded.
  }, 120_000);

  it('refuses to import into an instance that has content', async () => {
    const status = await startMicroCmsImport(
      target.db,
      targetStorage,
      { baseUrl, apiKey, client: { requestsPerSecond: 50 } },
      { actor: 'user:admin' },
    ).done;
    expect(status.phase).toBe('failed');
    expect(status.error).toMatch(/すでにコンテンツがあるため取り込めません（記事 \d+ 件/);
  });
});

describe('items the content model cannot take', () => {
  let empty: Database;
  const storage = new FileSystemStorage(path.join(tmp, 'fake-uploads'));
  beforeAll(async () => {
    empty = await createTestDatabase();
    resetTransferState();
  });
  afterAll(async () => {
    await empty?.close();
  });

  /** A fake microCMS answering `tags` with the given items and nothing else. */
  const fakeFetch =
    (items: unknown[]): typeof fetch =>
    (input) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      );
      if (url.pathname !== '/api/v1/tags')
        return Promise.resolve(new Response(null, { status: 404 }));
      return Promise.resolve(
        Response.json({ contents: items, totalCount: items.length, offset: 0, limit: 100 }),
      );
    };
  const item = (over: Record<string, unknown>) => ({
    id: 'tag-1',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    publishedAt: '2025-01-01T00:00:00.000Z',
    revisedAt: '2025-01-02T00:00:00.000Z',
    name: '建築',
    ...over,
  });
  const run = (items: unknown[]) =>
    startMicroCmsImport(
      empty.db,
      storage,
      {
        baseUrl: 'https://svc.microcms.io/api/v1',
        apiKey: 'k',
        client: { fetch: fakeFetch(items), requestsPerSecond: 1000 },
      },
      { actor: 'cli:test' },
    ).done;

  it('imports nothing when an item breaks the rules, and lists every one', async () => {
    const status = await run([
      item({ id: 'a', name: 'x'.repeat(51) }),
      item({ id: 'b', name: undefined }),
      item({ id: 'c' }),
    ]);
    expect(status.phase).toBe('failed');
    expect(status.error).toContain('取り込めない項目が 2 件あったため、何も取り込みませんでした。');
    expect(status.error).toContain(
      "tags/a: このサイトのコンテンツモデルに合わない値があります ('name' is too long",
    );
    expect(status.error).toContain(
      "tags/b: このサイトのコンテンツモデルに合わない値があります ('name' field required error.)",
    );
    const [count] = await queryRows<{ n: number }>(
      empty.db,
      sql`SELECT count(*)::int AS n FROM cms_contents`,
    );
    expect(count!.n).toBe(0);
  });

  it('leaves out fields the content model does not have, with a warning, and keeps drafts as drafts', async () => {
    const status = await run([
      item({ legacyField: 'old' }),
      item({ id: 'draft', publishedAt: undefined, revisedAt: undefined, name: '下書き' }),
    ]);
    expect(status.error).toBeNull();
    expect(status.warningList).toEqual([
      'tags のフィールド「legacyField」はこのサイトのコンテンツモデルにないため、取り込みませんでした。',
    ]);
    const rows = await queryRows<{ id: string; status: string; data: unknown; created_at: Date }>(
      empty.db,
      sql`SELECT id, status, data, created_at FROM cms_contents ORDER BY id`,
    );
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['draft', 'DRAFT'],
      ['tag-1', 'PUBLISH'],
    ]);
    expect(rows[1]!.data).toEqual({ name: '建築' });
    expect(new Date(rows[1]!.created_at).toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });
});
