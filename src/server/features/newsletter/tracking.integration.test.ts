import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { newsletterLetters, newsletterSends } from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { setTestOperator } from '@test-support/operator';
import { createContent } from '@/server/services/cms/writes';
import { type OutgoingLetter, deliverRound } from './delivery';
import { queueNewsletter } from './queue';
import { createLetterComposer } from './sender';
import type { AppUser } from '@/server/features/identity';
import { newsletterTrackingPost } from './account-http';
import { answerLetterTracking, lastLetterOpen, setTracking, trackingAllowed } from './tracking';

/**
 * Opens and clicks of a letter (docs/decisions/063-newsletter-analytics.md), attacks first: the
 * click redirect sends only to a link the letter held, by its index, never to an address from
 * the request; a guessed or another letter's id gets nothing; a reader who turned tracking off
 * gets plain links and no pixel. The real composer, content service and database.
 */

setTestOperator();
const database = testDatabase();
const SITE = 'https://axis.example.jp';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const AT = new Date('2026-12-02T01:00:00Z');
let sent: OutgoingLetter[];

async function request(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const req = {
    url,
    method,
    headers: { 'user-agent': CHROME, ...headers },
  } as unknown as IncomingMessage;
  const answer = { status: 0, headers: {} as Record<string, string | number>, body: '' };
  const res = {
    writeHead(status: number, head: Record<string, string | number>) {
      answer.status = status;
      answer.headers = head;
      return this;
    },
    end(body?: Buffer) {
      answer.body = body ? body.toString('latin1') : '';
    },
  } as unknown as ServerResponse;
  await answerLetterTracking(req, res, { db: () => Promise.resolve(database.db), now: () => AT });
  return answer;
}

const letterTo = (to: string) => {
  const letter = sent.find((l) => l.to === to);
  if (!letter) throw new Error(`no letter to ${to}`);
  return letter;
};
const row = async (id: string) =>
  (await database.db.select().from(newsletterLetters).where(eq(newsletterLetters.id, id)))[0]!;
const hrefs = (html: string) => [...html.matchAll(/ href="([^"]*)"/g)].map((m) => m[1]!);
const path = (url: string) => url.slice(SITE.length);

beforeAll(async () => {
  vi.stubEnv('SITE_URL', SITE);
  await addReaders(database.db, [{ id: 'tracked' }, { id: 'private' }, { id: 'other' }]);
  await setTracking(database.db, 'private', false);
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'linked',
    status: 'publish',
    body: {
      title: 'リンクのある記事',
      isPublicPreview: true,
      body: '<p><a href="https://maker.example.com/chair">メーカー</a>と<a href="/posts/older">前の記事</a></p>',
    },
  });
  sent = [];
  await queueNewsletter(database.db, { contentId: 'linked', segment: 'all', requestedBy: null });
  await deliverRound(database.db, {
    senderId: 'tracking-test',
    compose: createLetterComposer({ siteUrl: SITE }),
    transport: {
      send: (letter: OutgoingLetter) => {
        sent.push(letter);
        return Promise.resolve();
      },
    },
    ratePerSecond: 1_000_000,
    sleep: () => Promise.resolve(),
  });
});

beforeEach(async () => {
  await database.db
    .update(newsletterLetters)
    .set({ clickCount: 0, clickedAt: null, openCount: 0, openedAt: null });
});

describe('a tracked letter', () => {
  it('links through the site’s redirect to exactly the links it held, and carries a pixel', async () => {
    const letter = letterTo('tracked@example.jp');
    const links = hrefs(letter.html);
    const redirects = links.filter((h) => h.startsWith(`${SITE}/nl/c/${letter.letterId}/`));
    expect(redirects.length).toBeGreaterThanOrEqual(3); // the post, the maker, the older post
    expect(links.some((h) => h.startsWith('https://maker.example.com'))).toBe(false);
    // The footer's links stay plain: unsubscribing never passes through tracking.
    expect(
      links.some((h) => h.includes('/newsletter/unsubscribe') || h.includes('unsubscribe')),
    ).toBe(true);
    expect(letter.html).toContain(`${SITE}/nl/o/${letter.letterId}.gif`);
    expect(letter.text).toContain('開封とリンクのクリックを計測しています');
    const stored = (await row(letter.letterId!)).links!;
    const targets = [];
    for (const href of new Set(redirects)) {
      const answer = await request(path(href));
      expect(answer.status).toBe(302);
      targets.push(answer.headers.location);
    }
    expect(targets).toEqual(stored);
    expect(targets).toContain('https://maker.example.com/chair');
    const after = await row(letter.letterId!);
    expect(after.clickCount).toBe(redirects.length > 0 ? new Set(redirects).size : 0);
    expect(after.clickedAt).toEqual(AT);
    expect(after.openedAt).toEqual(AT); // a click is an open
  });

  it('never redirects to an address the letter did not hold', async () => {
    const id = letterTo('tracked@example.jp').letterId!;
    const count = (await row(id)).links!.length;
    for (const url of [
      `/nl/c/${id}/${count}`, // one past its links
      `/nl/c/${id}/999`,
      `/nl/c/${id}/-1`,
      `/nl/c/${id}/01`,
      `/nl/c/${id}/https%3A%2F%2Fevil.example%2F`,
      `/nl/c/${id}/https://evil.example/`,
      `/nl/c/${id}//evil.example`,
      `/nl/c/${id}/%2F%2Fevil.example`,
      `/nl/c/${id}/0/https://evil.example`,
      `/nl/c/${id}/0%2F..%2F..%2Fevil`,
      `/nl/c/https://evil.example/0`,
      `/nl/c/${id}?url=https://evil.example`,
      '/nl/c//evil.example',
      '/nl/redirect?to=https://evil.example',
    ]) {
      const answer = await request(url);
      expect(answer.status, url).toBe(404);
      expect(answer.headers.location, url).toBeUndefined();
    }
    // The query is never read: index 0 goes to the letter's first link, whatever it says.
    const answer = await request(`/nl/c/${id}/0?url=https://evil.example&to=//evil.example`);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe((await row(id)).links![0]);
    expect((await row(id)).clickCount).toBe(1);
  });

  it('gives a guessed letter id, or another letter’s index, nothing', async () => {
    const guessed = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect((await request(`/nl/c/${guessed}/0`)).status).toBe(404);
    // The pixel answers the same image to a guess, and counts nothing.
    const pixel = await request(`/nl/o/${guessed}.gif`);
    expect(pixel.status).toBe(200);
    expect(pixel.headers['content-type']).toBe('image/gif');
    // Another letter's index means that letter's link, never this one's: the other reader's
    // letter, index by index, only ever sends to its own links.
    const mine = letterTo('tracked@example.jp').letterId!;
    const theirs = letterTo('other@example.jp').letterId!;
    const theirLinks = (await row(theirs)).links!;
    for (let i = 0; i < theirLinks.length; i++)
      expect((await request(`/nl/c/${theirs}/${i}`)).headers.location).toBe(theirLinks[i]);
    expect((await row(mine)).clickCount).toBe(0);
  });

  it('counts the pixel as an open, but not a scanner, a prefetch or a HEAD', async () => {
    const id = letterTo('tracked@example.jp').letterId!;
    await request(`/nl/o/${id}.gif`, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    await request(`/nl/o/${id}.gif`, { 'sec-purpose': 'prefetch' });
    await request(`/nl/o/${id}.gif`, {}, 'HEAD');
    const scanned = await request(`/nl/c/${id}/0`, {
      'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)',
    });
    expect(scanned.status).toBe(302); // the scanner reaches the page, uncounted
    expect(await row(id)).toMatchObject({ openCount: 0, clickCount: 0, openedAt: null });
    const pixel = await request(`/nl/o/${id}.gif`);
    expect(pixel.headers['cache-control']).toBe('private, no-store');
    expect(await row(id)).toMatchObject({ openCount: 1, openedAt: AT });
    expect(await lastLetterOpen(database.db, 'tracked')).toEqual(AT);
    expect(await lastLetterOpen(database.db, 'other')).toBeNull();
  });
});

describe('a reader who turned tracking off', () => {
  it('gets plain links, no pixel, no letter id in any link, and no redirect answers for it', async () => {
    const letter = letterTo('private@example.jp');
    expect(letter.html).not.toContain('/nl/');
    expect(letter.html).not.toContain(letter.letterId!);
    expect(letter.text).not.toContain(letter.letterId!);
    expect(letter.html).not.toContain('計測しています');
    expect(hrefs(letter.html)).toContain('https://maker.example.com/chair');
    expect(hrefs(letter.html)).toContain(`${SITE}/posts/linked`);
    expect((await row(letter.letterId!)).links).toBeNull();
    expect((await request(`/nl/c/${letter.letterId}/0`)).status).toBe(404);
    await request(`/nl/o/${letter.letterId}.gif`);
    expect((await row(letter.letterId!)).openCount).toBe(0);
  });
});

describe('the sends', () => {
  it('has every letter sent', async () => {
    const sends = await database.db.select().from(newsletterSends);
    expect(sends).toHaveLength(1);
    expect(sent).toHaveLength(3);
  });
});

describe('POST /api/newsletter/tracking', () => {
  const run = (body: string, signedIn: boolean, origin = SITE) =>
    newsletterTrackingPost({
      db: () => Promise.resolve(database.db),
      viewer: () =>
        Promise.resolve(signedIn ? ({ id: 'other', role: 'member' } as unknown as AppUser) : null),
    })(
      new Request(`${SITE}/api/newsletter/tracking`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body,
      }),
    );

  it('lets the signed-in reader turn tracking off and on; refuses visitors, other sites and bad input', async () => {
    expect((await run('tracking=off', false)).status).toBe(303); // to the login page
    expect((await run('tracking=off', true, 'https://evil.example')).status).toBe(403);
    await run('tracking=maybe', true); // back to the form with its message, nothing changed
    expect(await trackingAllowed(database.db, 'other')).toBe(true);
    const off = await run('tracking=off', true);
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe('/account');
    expect(await trackingAllowed(database.db, 'other')).toBe(false);
    expect(await trackingAllowed(database.db, 'tracked')).toBe(true);
    await run('tracking=on', true);
    expect(await trackingAllowed(database.db, 'other')).toBe(true);
  });
});
