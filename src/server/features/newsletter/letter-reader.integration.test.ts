import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { newsletterLetters, newsletterSends, user } from '@/server/platform/db/schema';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { setTestOperator } from '@test-support/operator';
import { createContent } from '@/server/services/cms/writes';
import { type OutgoingLetter, deliverRound } from './delivery';
import { queueNewsletter } from './queue';
import { createLetterComposer } from './sender';

/**
 * Each reader's letter is what the site would show them (docs/decisions/026-newsletter-queue.md,
 * 2026-11-29 amendment), decided at send time by the access policy with the site's own free-plan
 * list and the reader's own plans: a free member gets the whole of one of the newest members'
 * posts (which the site opens to them) and the lead of an older one; a member whose payment is
 * being retried (past_due) and an editor read everything on the site, so their letters are whole.
 * The real composer, post loader and content service on a real database.
 */

// A letter's footer names the operator, required on a server database (PostgreSQL in CI).
setTestOperator();
const database = testDatabase();
const SITE = 'https://axis.example.jp';
const day = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * 86_400_000).toISOString();
const secretOf = (id: string) => `KAIIN-NOMI-${id.toUpperCase()}`;
const bodyOf = (id: string) =>
  `<p>誰でも読める冒頭です。</p>${MEMBERS_DIVIDER.html}<p>会員だけの段落 ${secretOf(id)}</p>`;

let sent: OutgoingLetter[];
const sender = (senderId: string) => ({
  senderId,
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

async function sendToAll(contentId: string) {
  await queueNewsletter(database.db, { contentId, segment: 'all', requestedBy: null });
  await deliverRound(database.db, sender(`s-${contentId}`));
  return (to: string) => {
    const letter = sent.find((l) => l.to === to);
    if (!letter) throw new Error(`no letter to ${to}`);
    return letter;
  };
}

beforeAll(async () => {
  vi.stubEnv('SITE_URL', SITE);
  await addReaders(database.db, [
    { id: 'free' },
    { id: 'paid', plan: 'active' },
    { id: 'retrying', plan: 'past_due' },
    { id: 'editor' },
  ]);
  await database.db.update(user).set({ role: 'editor' }).where(eq(user.id, 'editor'));
  // The oldest members' post, then three newer ones: the free plan (the 3 newest) leaves the
  // oldest to paid readers.
  for (const [n, id] of ['older', 'newer-1', 'newer-2', 'newest'].entries()) {
    await createContent(database.db, findEndpoint('posts')!, {
      id,
      status: 'publish',
      body: { title: `記事 ${id}`, body: bodyOf(id), isPublicPreview: false, publishedAt: day(n) },
    });
  }
});

beforeEach(async () => {
  sent = [];
  await database.db.delete(newsletterSends);
});

describe('each newsletter reader gets what the site would show them', () => {
  it('a free member gets the whole of a members’ post the free plan opens to them', async () => {
    const letterTo = await sendToAll('newest');
    const free = letterTo('free@example.jp');
    expect(free.html).toContain(secretOf('newest'));
    expect(free.text).toContain(secretOf('newest'));
    expect(free.text).not.toContain('有料会員の方がサイトでお読みいただけます');
    expect(letterTo('paid@example.jp').text).toContain(secretOf('newest'));
    // Who they are is recorded as before: the free member got the free reader's letter.
    const rows = await database.db
      .select({ email: newsletterLetters.email, audience: newsletterLetters.audience })
      .from(newsletterLetters)
      .orderBy(newsletterLetters.email);
    expect(rows.find((r) => r.email === 'free@example.jp')?.audience).toBe('free');
  });

  it('a free member gets the lead of an older members’ post, and what opens the rest', async () => {
    const letterTo = await sendToAll('older');
    const free = letterTo('free@example.jp');
    expect(free.html + free.text).not.toContain(secretOf('older'));
    expect(free.text).toContain('誰でも読める冒頭です。');
    expect(free.text).toContain('有料会員の方がサイトでお読みいただけます');
    expect(letterTo('paid@example.jp').text).toContain(secretOf('older'));
  });

  it('a reader whose payment is being retried, and an editor, read the whole post as on the site', async () => {
    const letterTo = await sendToAll('older');
    expect(letterTo('retrying@example.jp').text).toContain(secretOf('older'));
    expect(letterTo('editor@example.jp').text).toContain(secretOf('older'));
  });

  it('decides at send time: a newer post moves the older one out of the free plan', async () => {
    await queueNewsletter(database.db, {
      contentId: 'newer-1',
      segment: 'free',
      requestedBy: null,
    });
    await createContent(database.db, findEndpoint('posts')!, {
      id: 'newer-3',
      status: 'publish',
      body: {
        title: '記事 newer-3',
        body: bodyOf('newer-3'),
        isPublicPreview: false,
        publishedAt: day(9),
      },
    });
    await deliverRound(database.db, sender('late'));
    const free = sent.find((l) => l.to === 'free@example.jp')!;
    expect(free.text).not.toContain(secretOf('newer-1'));
    expect(free.text).toContain('有料会員の方がサイトでお読みいただけます');
  });
});
