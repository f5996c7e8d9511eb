import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { ClaimedLetter } from './delivery';
import { type LetterPost, renderNewsletterLetter } from './letter';
import { createLetterComposer } from './sender';
import { trackLetterHtml } from './tracking';
import { unsubscribeUrl } from '@/server/features/profiles/newsletter-consent';

// The site's letter as the sender builds it: the post's link and a header carry the letter (not
// the reader), RFC 8058 headers name the reader's unsubscribe link, and a letter filled in from the
// per-post template is the very letter a whole render gives.

const SITE = 'https://axis.example.jp';
const post: LetterPost = {
  id: 'p1',
  title: '会員の記事',
  isPublicPreview: false,
  description: '説明',
  body: `<p>冒頭</p>${MEMBERS_DIVIDER.html}<p>会員だけの続き</p>`,
  publishedAt: '2026-11-20T00:00:00.000Z',
  writers: [{ name: '山田 花子' }],
};
const letter = (more: Partial<ClaimedLetter>): ClaimedLetter => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  sendId: 's',
  contentId: 'p1',
  userId: 'u1',
  email: 'u1@example.jp',
  name: '読者 一',
  audience: 'free',
  attempts: 0,
  subject: null,
  tracked: true,
  ...more,
});

beforeAll(() => {
  vi.stubEnv('APP_SECRET', 'k'.repeat(40));
  vi.stubEnv('SITE_URL', SITE);
});

const loadFreePlan = () => Promise.resolve([] as readonly string[]);

describe('the sender’s letters', () => {
  it('carry the one-click unsubscribe headers, the letter’s id and its own post link', async () => {
    const compose = createLetterComposer({
      loadPost: () => Promise.resolve(post),
      loadFreePlan,
      siteUrl: SITE,
    });
    const message = (await compose(letter({})))!;
    expect(message.to).toBe('u1@example.jp');
    expect(message.letterId).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(message.headers).toEqual({
      'List-Unsubscribe': `<${unsubscribeUrl('u1')}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // What a bounce or a complaint that comes back by mail is matched by (bounces.ts).
      'X-Newsletter-Letter-Id': '0f8fad5b-d9cb-469f-a165-70867728950e',
    });
    expect(message.headers['List-Unsubscribe']).toMatch(/^<https:\/\/axis\.example\.jp\//);
    expect(message.text).toContain(`${SITE}/posts/p1?nl=0f8fad5b-d9cb-469f-a165-70867728950e`);
    expect(message.text).not.toContain('u1?');
    expect(message.html).not.toContain('会員だけの続き');
  });

  it('fill the per-post template into exactly what a whole render gives', async () => {
    // One second for both renders: the unsubscribe link's token carries its expiry in seconds.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 29, 3, 0, 0) });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const loadPost = vi.fn(() => Promise.resolve(post));
    const compose = createLetterComposer({ loadPost, loadFreePlan, siteUrl: SITE });
    await compose(letter({}));
    for (const reader of [
      letter({ userId: 'u2', email: 'a+b@example.jp', name: '<b>&"花"</b>', audience: 'free' }),
      letter({ userId: 'u3', email: 'c@example.jp', name: '有料 三', audience: 'paid' }),
      letter({ userId: 'u4', email: 'd@example.jp', name: '有料 四', audience: 'paid' }),
      letter({ userId: 'u5', email: 'e@example.jp', name: '', audience: 'free' }),
    ]) {
      const message = (await compose(reader))!;
      const whole = renderNewsletterLetter({
        item: post,
        audience: reader.audience,
        recipient: { name: reader.name, email: reader.email },
        unsubscribeUrl: unsubscribeUrl(reader.userId),
        postUrl: `${SITE}/posts/p1?nl=${reader.id}`,
        freePlanPostIds: [],
        tracked: true,
      });
      expect({ subject: message.subject, html: message.html, text: message.text }).toEqual({
        ...whole,
        html: trackLetterHtml(whole.html, SITE, reader.id).html,
      });
    }
    expect(loadPost).toHaveBeenCalledTimes(1); // the post is read once per send, not per letter
  });

  it('follow the free-plan list read with the post, and a newer list once the post is read again', async () => {
    let clock = 0;
    let freePlan: readonly string[] = ['p1'];
    const compose = createLetterComposer({
      loadPost: () => Promise.resolve(post),
      loadFreePlan: () => Promise.resolve(freePlan),
      siteUrl: SITE,
      now: () => clock,
    });
    expect((await compose(letter({})))!.text).toContain('会員だけの続き');
    freePlan = ['p2', 'p3', 'p4'];
    clock += 60_000; // the post and the list are read again
    const later = (await compose(letter({ userId: 'u2', name: '読者 二' })))!;
    expect(later.text).not.toContain('会員だけの続き');
    expect(later.text).toContain('読者 二');
  });

  it('are not written when the post cannot be read', async () => {
    const compose = createLetterComposer({
      loadPost: () => Promise.resolve(null),
      loadFreePlan,
      siteUrl: SITE,
    });
    expect(await compose(letter({}))).toBeNull();
  });
});
