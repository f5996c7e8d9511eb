import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { newsletterLetters } from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { answerLetterVisit } from './opens';
import { queueNewsletter } from './queue';
import { createContent } from '@/server/services/cms/writes';

// A post opened from a letter: counted once per visit (then redirected without the parameter),
// only for the letter's own post, never for crawlers, prefetches or readers who opt out of
// tracking, and without anything that would say who the reader is.

const database = testDatabase({ global: false });
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const AT = new Date('2026-12-02T01:00:00Z');
let letterId: string;

async function visit(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const req = {
    url,
    method,
    headers: { 'user-agent': CHROME, ...headers },
  } as unknown as IncomingMessage;
  const answer = { status: 0, headers: {} as Record<string, string> };
  const res = {
    writeHead(status: number, head: Record<string, string>) {
      answer.status = status;
      answer.headers = head;
      return this;
    },
    end() {},
  } as unknown as ServerResponse;
  const handled = await answerLetterVisit(req, res, {
    db: () => Promise.resolve(database.db),
    now: () => AT,
  });
  return { handled, ...answer };
}
const letter = async () =>
  (
    await database.db.select().from(newsletterLetters).where(eq(newsletterLetters.id, letterId))
  )[0]!;

beforeAll(async () => {
  await addReaders(database.db, [{ id: 'reader' }]);
  const posts = findEndpoint('posts')!;
  await createContent(database.db, posts, {
    id: 'opened',
    body: { title: 'A' },
    status: 'publish',
  });
  await createContent(database.db, posts, { id: 'other', body: { title: 'B' }, status: 'publish' });
  const { sendId } = await queueNewsletter(database.db, {
    contentId: 'opened',
    segment: 'all',
    requestedBy: null,
  });
  const [row] = await database.db
    .update(newsletterLetters)
    .set({ status: 'sent' })
    .where(eq(newsletterLetters.sendId, sendId))
    .returning({ id: newsletterLetters.id });
  letterId = row!.id;
});

describe('opens from a letter', () => {
  it('counts the visit, then redirects to the address without the parameter', async () => {
    const answer = await visit(`/posts/opened?nl=${letterId}`);
    expect(answer).toMatchObject({ handled: true, status: 303 });
    expect(answer.headers).toEqual({
      location: '/posts/opened',
      'cache-control': 'private, no-store',
      'content-length': '0',
    });
    expect(await letter()).toMatchObject({ openCount: 1, openedAt: AT });
    // A second click from the letter is a second visit; the first time stays.
    await visit(`/posts/opened?nl=${letterId}&utm_source=x`);
    expect(await letter()).toMatchObject({ openCount: 2, openedAt: AT });
  });

  it('does not count crawlers, prefetches, HEAD, DNT or GPC, another post or a forged id', async () => {
    const before = (await letter()).openCount;
    const url = `/posts/opened?nl=${letterId}`;
    const cases: Record<string, string>[] = [
      { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
      { 'user-agent': '' },
      { 'sec-purpose': 'prefetch' },
      { purpose: 'prefetch' },
      { dnt: '1' },
      { 'sec-gpc': '1' },
      { rsc: '1' },
    ];
    for (const headers of cases) expect((await visit(url, headers)).status).toBe(303);
    expect((await visit(url, {}, 'HEAD')).status).toBe(303);
    expect((await visit(`/posts/other?nl=${letterId}`)).headers.location).toBe('/posts/other');
    expect((await visit('/posts/opened?nl=00000000-0000-4000-8000-000000000000')).status).toBe(303);
    expect((await visit("/posts/opened?nl=x'--")).headers.location).toBe('/posts/opened');
    expect((await letter()).openCount).toBe(before);
  });

  it('leaves requests without the parameter, and writes alone', async () => {
    expect((await visit('/posts/opened')).handled).toBe(false);
    expect((await visit(`/posts/opened?nl=${letterId}`, {}, 'POST')).handled).toBe(false);
  });
});
