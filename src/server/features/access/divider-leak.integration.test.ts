import type { ReactNode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Viewer } from '@/lib/access/post-access';
import type { PageTestState } from '@test-support/site-content-mock';
import { env } from '@/env';
import { findEndpoint } from '@/lib/cms/model';
import { handleContentApi } from '@/server/services/cms/http';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { findDraftKey } from '@/server/services/cms/store';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import { getFreePlanPostIds } from '@/server/features/content';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { type LetterPost, renderNewsletterLetter } from '@/server/features/newsletter/letter';
import { previewCookieValue } from '@/server/features/preview/preview';
import { leadOf } from '@/lib/access/lead';
import { remainingCharsLabel } from '@/lib/access/access-label';
import { readingTimeLabel } from '@/lib/reading-time';
import { searchSite } from '@/server/features/search/site-search';
import { segmentsText } from '@/server/features/search/snippet';
import { feedResponse } from '@/server/features/seo/feed';
import { createTestDatabase } from '@test-support/db/test-database';
import { createContent, updateContent } from '@/server/services/cms/writes';

/**
 * The attack test of docs/decisions/029-divider-is-the-lead.md: a members' post with text, a
 * figure, an embed and a table below the divider, read by a signed-out visitor and by a free
 * member (the post is outside the free plan), through every output the site makes of a post.
 * Nothing below the divider may appear; everything above it, figures and embeds included,
 * does. The page and its metadata read the post through `readPost`, whose answer is all that
 * reaches the page and so its RSC payload: that answer is checked whole, as well as the HTML.
 */

const state = vi.hoisted((): PageTestState & { cookie?: string } => ({
  viewer: { kind: 'anonymous' },
  site: undefined,
}));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () =>
    Promise.resolve({
      get: (name: string) =>
        name === 'axis_preview' && state.cookie ? { name, value: state.cookie } : undefined,
    }),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);
// Client islands that need a mounted router; what they show is not what is checked here.
vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));
vi.mock('@/components/preview/preview-banner.client', () => ({
  PreviewBanner: ({ visitor }: { visitor?: boolean }) => (visitor ? '訪問者として表示中' : null),
}));

const { default: PostPage, generateMetadata } = await import('@/app/posts/[contentId]/page');
const { readPost } = await import('./read');

const ID = 'divided-post';
/** The same body with no description and no seo field: its metadata falls back to the lead. */
const BARE_ID = 'divided-bare';
/** The editor's search and sharing values of ID: JSON-LD says what the page's head says. */
const SEO = {
  metaTitle: 'シェアの題',
  metaDescription: 'シェアの説明。',
  shareImage: { url: '/uploads/share.png', width: 1200, height: 630 },
};
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

/** Above the divider: each must reach the visitor. */
const ABOVE = {
  headings: ['オモテノミダシイチ', 'オモテノミダシニ', 'オモテノコミダシ'],
  text: 'リードの段落はオモテノコトバを含む。',
  figure: '/uploads/lead-figure.jpg',
  caption: 'オモテノズハン',
  embed: 'LeadVideo01',
  cell: 'オモテノヒョウ',
};
/** Below it: none may. */
const BELOW = {
  heading: 'ウラノミダシ',
  text: 'ウラノコトバ',
  figure: '/uploads/secret-figure.jpg',
  alt: 'ウラノズハンノセツメイ',
  caption: 'ウラノズハン',
  embed: 'SecretVid99',
  post: 'https://x.com/himitsu/status/987654321',
  cell: 'ウラノヒョウ',
};
const SECRETS = [
  BELOW.heading,
  BELOW.text,
  BELOW.figure,
  BELOW.alt,
  BELOW.caption,
  BELOW.embed,
  'himitsu',
  BELOW.cell,
];

/** The text below the divider: the paywall counts it (BELOW_TEXT's characters), never shows it. */
const BELOW_TEXT = `${BELOW.heading}${BELOW.text}が結末に書かれている。${'本文。'.repeat(50)}`;
const BODY = [
  `<h2>${ABOVE.headings[0]}</h2>`,
  `<p>${ABOVE.text}</p>`,
  `<h2>${ABOVE.headings[1]}</h2>`,
  `<h3>${ABOVE.headings[2]}</h3>`,
  `<figure><img src="${ABOVE.figure}" alt="リード図版"><figcaption>${ABOVE.caption}</figcaption></figure>`,
  `<iframe src="https://www.youtube.com/embed/${ABOVE.embed}" title="YouTube"></iframe>`,
  `<table><tbody><tr><td>${ABOVE.cell}</td></tr></tbody></table>`,
  MEMBERS_DIVIDER.html,
  `<h2>${BELOW.heading}</h2>`,
  `<p>${BELOW.text}が結末に書かれている。${'本文。'.repeat(50)}</p>`,
  `<figure><img src="${BELOW.figure}" alt="${BELOW.alt}"><figcaption>${BELOW.caption}</figcaption></figure>`,
  `<iframe src="https://www.youtube.com/embed/${BELOW.embed}" title="YouTube"></iframe>`,
  `<figure><a href="${BELOW.post}">${BELOW.post}</a></figure>`,
  `<table><tbody><tr><td>${BELOW.cell}</td></tr></tbody></table>`,
].join('');

const READERS: Record<string, Viewer> = {
  visitor: { kind: 'anonymous' },
  'free member': { kind: 'member', paid: false },
};
/** A reader with access: the page holds the body, what describes it must not. */
const PAID: Viewer = { kind: 'member', paid: true };

/** A server page as HTML, its async components awaited. */
async function html(element: ReactNode): Promise<string> {
  const stream = await renderToReadableStream(element);
  await stream.allReady;
  return new Response(stream).text();
}

function expectNoSecret(output: string, where: string): void {
  for (const secret of SECRETS) expect(output, `${where}: ${secret}`).not.toContain(secret);
}

/** The page's structured data (its <script type="application/ld+json">), parsed. */
function jsonLdOf(page: string): { '@type': string; [key: string]: unknown }[] {
  const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page);
  expect(script, 'JSON-LD').not.toBeNull();
  return JSON.parse(script![1]!) as { '@type': string; [key: string]: unknown }[];
}

describe('nothing below the members’ divider reaches a reader without access', () => {
  let database: Database;
  let site: SiteContent;

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 'd'.repeat(40));
    database = await createTestDatabase();
    useDatabase(database);
    site = createSiteContent({ db: database.db });
    state.site = site;
    const posts = findEndpoint('posts')!;
    await createContent(database.db, posts, {
      id: ID,
      status: 'publish',
      body: {
        title: '区切り線のある記事',
        description: '概要は誰にでも見える。',
        body: BODY,
        isPublicPreview: false,
        publishedAt: day(1),
        seo: SEO,
      },
    });
    await createContent(database.db, posts, {
      id: BARE_ID,
      status: 'publish',
      body: { title: '概要のない記事', body: BODY, isPublicPreview: false, publishedAt: day(0) },
    });
    // Three newer members' posts: the free plan (the 3 newest) leaves this one paid only.
    for (const n of [2, 3, 4]) {
      await createContent(database.db, posts, {
        id: `newer-${n}`,
        status: 'publish',
        body: {
          title: `新しい記事${n}`,
          body: '<p>本文。</p>',
          isPublicPreview: false,
          publishedAt: day(n),
        },
      });
    }
  });
  afterAll(async () => {
    site.dispose();
    useDatabase(undefined);
    await database.close();
    vi.unstubAllEnvs();
  });

  for (const [reader, viewer] of Object.entries(READERS)) {
    it(`the page, its payload and its metadata, for a ${reader}`, async () => {
      state.viewer = viewer;
      state.cookie = undefined;
      const read = await readPost(ID);
      expect(read?.full).toBe(false);
      // Everything the page (and so its RSC payload) and generateMetadata are given.
      const given = JSON.stringify(read);
      expectNoSecret(given, 'readPost');
      const params = Promise.resolve({ contentId: ID });
      const page = await html(await PostPage({ params }));
      expectNoSecret(page, 'page');
      expectNoSecret(JSON.stringify(await generateMetadata({ params })), 'metadata');
      // JSON-LD is on the page, says the post is paywalled, and describes it as its head does.
      expect(jsonLdOf(page)[0]).toMatchObject({
        headline: SEO.metaTitle,
        description: SEO.metaDescription,
        image: [`${env().SITE_URL}${SEO.shareImage.url}`],
        isAccessibleForFree: false,
      });
      // What stands above the divider is all there: text, figure, embed and table.
      expect(page).toContain(ABOVE.text);
      expect(page).toContain(`src="${ABOVE.figure}"`);
      expect(page).toContain(ABOVE.caption);
      expect(page).toContain(ABOVE.embed);
      expect(page).toContain(ABOVE.cell);
      // The table of contents lists the lead's headings, each a link to an id on the page, and
      // the paywall says how much is left (counted on the server) without any of it.
      const toc = /<nav aria-label="目次"[^>]*>([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? '';
      for (const heading of ABOVE.headings) {
        expect(toc).toContain(`<a href="#${heading}">${heading}</a>`);
        expect(page).toContain(`id="${heading}"`);
      }
      expectNoSecret(toc, 'table of contents');
      const left = Array.from(BELOW_TEXT).length;
      expect(page).toContain(remainingCharsLabel(left));
      expect(page).toContain(
        `読了時間 ${readingTimeLabel(left + Array.from(ABOVE.headings.join('') + ABOVE.text + ABOVE.cell).length)}`,
      );
    });

    it(`the site search and its snippets, for a ${reader}`, async () => {
      const source = { client: site.client, db: database.db };
      for (const q of [BELOW.text, BELOW.alt, BELOW.caption, BELOW.cell]) {
        const results = await searchSite(source, { q, type: 'all', page: 1 }, viewer);
        expect(
          results.hits.map((h) => h.id),
          q,
        ).not.toContain(ID);
      }
      const lead = await searchSite(source, { q: 'オモテノコトバ', type: 'all', page: 1 }, viewer);
      expect(lead.hits.map((h) => h.id)).toContain(ID);
      expectNoSecret(
        lead.hits.map((h) => segmentsText(h.snippet) + segmentsText(h.title)).join('\n'),
        'snippet',
      );
    });
  }

  it('a paid member’s table of contents lists every heading, below the divider too', async () => {
    state.viewer = { kind: 'member', paid: true };
    state.cookie = undefined;
    const page = await html(await PostPage({ params: Promise.resolve({ contentId: ID }) }));
    const toc = /<nav aria-label="目次"[^>]*>([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? '';
    for (const heading of [...ABOVE.headings, BELOW.heading]) {
      expect(toc).toContain(`href="#${heading}"`);
    }
    expect(page).toContain(`id="${BELOW.heading}"`);
    expect(page).not.toContain('data-paywall');
  });

  it('with no description, the metadata takes the lead’s text and JSON-LD no text at all, for every reader', async () => {
    const params = Promise.resolve({ contentId: BARE_ID });
    for (const [reader, viewer] of [...Object.entries(READERS), ['paid member', PAID] as const]) {
      state.viewer = viewer;
      state.cookie = undefined;
      const metadata = await generateMetadata({ params });
      expect(metadata.description, reader).toContain(ABOVE.text);
      expectNoSecret(JSON.stringify(metadata), `metadata for a ${reader}`);
      const page = await html(await PostPage({ params }));
      const [article] = jsonLdOf(page);
      expect(article, reader).toMatchObject({ headline: '概要のない記事' });
      expect(article?.description, reader).toBeUndefined();
      expectNoSecret(JSON.stringify(jsonLdOf(page)), `JSON-LD for a ${reader}`);
      // The page itself holds the body only for the reader with access.
      if (viewer === PAID) expect(page).toContain(BELOW.text);
      else expectNoSecret(page, `page for a ${reader}`);
    }
  });

  it('the RSS feed', async () => {
    const feed = await (
      await feedResponse(site.client, { siteUrl: 'https://axis.example.jp', siteName: 'AXIS' })
    ).text();
    expect(feed).toContain(`/posts/${ID}`);
    expect(feed).toContain(`/posts/${BARE_ID}`);
    expectNoSecret(feed, 'feed');
  });

  it('the content API without a key', async () => {
    for (const path of [`posts/${ID}`, 'posts']) {
      const url = `http://localhost:3000/api/v1/${path}`;
      const [endpoint, contentId] = path.split('/') as [string, string | undefined];
      const response = await handleContentApi(new Request(url), endpoint, contentId, database.db);
      expect(response.status, path).toBe(401);
      expectNoSecret(await response.text(), `api ${path}`);
    }
  });

  it('the free letter of the newsletter, and not the paid one', async () => {
    // The site's own free-plan list: the post is outside it, as for the free member above.
    const freePlanPostIds = await getFreePlanPostIds(site.client);
    const item: LetterPost = {
      id: ID,
      title: '区切り線のある記事',
      description: '概要は誰にでも見える。',
      isPublicPreview: false,
      body: BODY,
      publishedAt: day(1),
    };
    const letter = (audience: 'free' | 'paid') =>
      renderNewsletterLetter({
        item,
        audience,
        recipient: { name: '読者', email: 'reader@example.com' },
        unsubscribeUrl: 'https://axis.example.jp/newsletter/unsubscribe?t=x',
        postUrl: `https://axis.example.jp/posts/${ID}`,
        freePlanPostIds,
        sender: {
          siteName: 'AXIS',
          siteUrl: 'https://axis.example.jp',
          operator: { name: '運営者', address: '東京都', email: 'info@example.com' },
        },
      });
    const free = letter('free');
    expectNoSecret(free.html + free.text + free.subject, 'free letter');
    expect(free.html).toContain(ABOVE.text);
    expect(free.html).toContain(ABOVE.cell);
    expect(letter('paid').html).toContain(BELOW.cell);
  });

  it('「訪問者に見える部分」 is the visitor’s page of the draft, for an editor', async () => {
    // A draft of the published post, with a new lead and a new secret below the divider.
    const draftBody = BODY.replace(
      MEMBERS_DIVIDER.html,
      `<p>シタガキノリード</p>${MEMBERS_DIVIDER.html}<p>シタガキノヒミツ</p>`,
    );
    await updateContent(
      database.db,
      findEndpoint('posts')!,
      ID,
      { body: draftBody },
      { draft: true },
    );
    const draftKey = (await findDraftKey(database.db, 'posts', ID))!;
    state.viewer = { kind: 'staff' };
    state.cookie = previewCookieValue({
      endpoint: 'posts',
      contentId: ID,
      draftKey,
      as: 'visitor',
    });
    const view = await readPost(ID);
    const page = await html(await PostPage({ params: Promise.resolve({ contentId: ID }) }));
    // The whole draft, for comparison: the preview without `as`.
    state.cookie = previewCookieValue({ endpoint: 'posts', contentId: ID, draftKey });
    const whole = await readPost(ID);
    state.cookie = undefined;
    expect(view).toMatchObject({ preview: true, visitorView: true, full: false });
    expect(view?.viewer).toEqual({ kind: 'anonymous' });
    expect(view?.item.body).toBe(leadOf(draftBody));
    expect(page).toContain('シタガキノリード');
    expect(page).toContain('訪問者として表示中');
    for (const output of [JSON.stringify(view), page]) {
      expectNoSecret(output, 'visitor view');
      expect(output).not.toContain('シタガキノヒミツ');
    }
    expect(whole?.item.body).toContain('シタガキノヒミツ');
  });
});
