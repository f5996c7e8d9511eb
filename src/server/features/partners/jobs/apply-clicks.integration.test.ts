import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { findEndpoint } from '@/lib/cms/model';
import type { Job } from '@/server/features/content/schemas';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type { Database } from '@/server/platform/db/client';
import { jobApplyClicks, pageViews } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { countApplyClicks, countJobViews, handleApplyClick } from './apply-clicks';
import { createContent } from '@/server/services/cms/writes';

const state = vi.hoisted(() => ({ site: undefined as SiteContent | undefined }));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).siteContentFromState(state, importOriginal),
);

// GET /jobs/{id}/apply against a real database: a reader's click on an open listing is counted
// and sent to the listing's own address, and nothing else is (closed, unknown, crawlers,
// prefetches), and no request can choose where it is sent.

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const NOW = new Date('2026-11-24T03:00:00Z'); // 12:00 in Japan

const job = (id: string, fields: Partial<Job> = {}): Job => ({
  id,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  publishedAt: '2026-11-01T00:00:00.000Z',
  title: `求人 ${id}`,
  partner: null,
  employmentType: ['正社員'],
  occupation: [],
  prefecture: ['東京都'],
  remote: ['出社'],
  salaryUnit: [],
  applyUrl: `https://example.com/recruit/${id}`,
  closingDate: '2026-11-24T23:59:59+09:00',
  ...fields,
});

const JOBS = new Map<string, Job>([
  ['open', job('open')],
  ['mail-only', job('mail-only', { applyUrl: null, applyEmail: 'recruit@example.com' })],
  ['both', job('both', { applyEmail: 'jobs@example.com' })],
  ['closed', job('closed', { closingDate: '2026-11-23T23:59:59+09:00' })],
  ['no-way', job('no-way', { applyUrl: null, applyEmail: null })],
  ['bad-url', job('bad-url', { applyUrl: 'javascript:alert(1)' })],
]);

describe('apply clicks', () => {
  const database = testDatabase({ global: false });
  beforeEach(async () => {
    await database.db.delete(jobApplyClicks);
  });

  const click = (id: string, options: { query?: string; headers?: Record<string, string> } = {}) =>
    handleApplyClick(
      new Request(`http://localhost:3000/jobs/${id}/apply${options.query ?? ''}`, {
        headers: { 'user-agent': CHROME, ...options.headers },
      }),
      id,
      {
        db: database.db,
        now: () => NOW,
        findJob: (contentId) => Promise.resolve(JOBS.get(contentId) ?? null),
      },
    );
  const clicks = async () =>
    (await database.db.select({ contentId: jobApplyClicks.contentId }).from(jobApplyClicks)).map(
      (r) => r.contentId,
    );

  it('counts a click on an open listing and sends the reader to its application page', async () => {
    const res = await click('open');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/recruit/open');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(await clicks()).toEqual(['open']);
  });

  it('sends a listing that takes applications by e-mail to a mail with the listing named', async () => {
    const res = await click('mail-only');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `mailto:recruit@example.com?subject=${encodeURIComponent('「求人 mail-only」への応募')}`,
    );
    // A listing with both: the page, unless the e-mail is asked for.
    expect((await click('both')).headers.get('location')).toBe('https://example.com/recruit/both');
    expect((await click('both', { query: '?via=email' })).headers.get('location')).toMatch(
      /^mailto:jobs@example\.com\?/,
    );
    expect(await clicks()).toEqual(['mail-only', 'both', 'both']);
  });

  it('sends a closed listing back to its page, uncounted', async () => {
    const res = await click('closed');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/jobs/closed');
    expect(await clicks()).toEqual([]);
  });

  it('answers 404 for an unknown listing and one without that way to apply, uncounted', async () => {
    for (const [id, query] of [
      ['nope', ''],
      ['no-way', ''],
      ['open', '?via=email'],
      ['bad-url', ''],
    ] as const) {
      const res = await click(id, { query });
      expect(res.status, `${id}${query}`).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await clicks()).toEqual([]);
  });

  it('goes nowhere but the stored address, whatever the request asks', async () => {
    const res = await click('open', {
      query: '?url=https://evil.example/&next=//evil.example&via=url',
    });
    expect(res.headers.get('location')).toBe('https://example.com/recruit/open');
  });

  it('redirects crawlers and prefetches without counting them', async () => {
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const cases: Record<string, string>[] = [
      { 'user-agent': googlebot },
      { 'sec-purpose': 'prefetch' },
      { purpose: 'prefetch' },
      { 'next-router-prefetch': '1' },
    ];
    for (const headers of cases) {
      expect((await click('open', { headers })).status).toBe(303);
    }
    expect(await clicks()).toEqual([]);
  });

  it('counts clicks and views per listing for the partner dashboards', async () => {
    await click('open');
    await click('open');
    await click('both');
    const views = (contentId: string, endpoint = 'jobs') => ({
      day: '2026-11-24',
      path: `/${endpoint}/${contentId}`,
      endpoint,
      contentId,
      visitorId: '11111111-1111-4111-8111-111111111111',
    });
    await database.db
      .insert(pageViews)
      .values([views('open'), views('open'), views('open'), views('both'), views('open', 'posts')]);

    expect(await countApplyClicks(database.db, ['open', 'both', 'mail-only'])).toEqual(
      new Map([
        ['open', 2],
        ['both', 1],
        ['mail-only', 0],
      ]),
    );
    expect(await countJobViews(database.db, ['open', 'both', 'closed'])).toEqual(
      new Map([
        ['open', 3],
        ['both', 1],
        ['closed', 0],
      ]),
    );
    expect(await countApplyClicks(database.db, [])).toEqual(new Map());
    expect(await countJobViews(database.db, [])).toEqual(new Map());
  });
});

describe('apply clicks on the built-in content service', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    const def = findEndpoint('jobs')!;
    const body = (title: string) => ({
      title,
      applyUrl: 'https://example.com/recruit/real',
      closingDate: '2099-12-31T23:59:59+09:00',
    });
    await createContent(database.db, def, { id: 'real', body: body('公開中'), status: 'publish' });
    await createContent(database.db, def, { id: 'draft', body: body('下書き'), status: 'draft' });
    state.site = createSiteContent({ db: database.db });
  });
  afterAll(async () => {
    state.site?.dispose();
    state.site = undefined;
    await database.close();
  });

  it('finds only the published listing: a draft has no apply route', async () => {
    const click = (id: string) =>
      handleApplyClick(
        new Request(`http://localhost:3000/jobs/${id}/apply`, {
          headers: { 'user-agent': CHROME },
        }),
        id,
        { db: database.db },
      );
    const published = await click('real');
    expect(published.status).toBe(303);
    expect(published.headers.get('location')).toBe('https://example.com/recruit/real');
    expect((await click('draft')).status).toBe(404);
    expect((await click('../real')).status).toBe(404);
    expect(await countApplyClicks(database.db, ['real', 'draft'])).toEqual(
      new Map([
        ['real', 1],
        ['draft', 0],
      ]),
    );
  });
});
