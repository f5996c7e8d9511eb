import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Viewer } from '@/lib/access/post-access';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { ContentClient } from '@/server/features/content/client';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type * as SiteContentModule from '@/server/features/content/site-content';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { createContent } from '@/server/services/cms/writes';

// The page as a request renders it: the client address, the viewer and the database are the test's.
const state = vi.hoisted((): { ip: string; viewer: Viewer; client: ContentClient | null } => ({
  ip: '192.0.2.1',
  viewer: { kind: 'anonymous' },
  client: null,
}));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers({ 'x-axis-client-ip': state.ip })),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/content/site-content', async (importOriginal) => ({
  ...(await importOriginal<typeof SiteContentModule>()),
  siteContent: () => state.client,
  usesBuiltInContent: () => true,
}));

// The client island needs a mounted router; its children are what is checked here.
vi.mock('@/components/search/search-shell.client', async () => {
  const { Fragment, createElement } = await import('react');
  return {
    SearchShell: ({ form, children }: { form: ReactNode; children: ReactNode }) =>
      createElement(Fragment, null, form, children),
  };
});

const { default: SearchPage } = await import('./page');

const SECRET_WORD = 'ホウセンカ';

async function render(q: string): Promise<string> {
  const element = await SearchPage({ searchParams: Promise.resolve({ q }) });
  return renderToStaticMarkup(element);
}

/** The redirect the page threw, or null when it rendered. */
async function redirectOf(q: string): Promise<string | null> {
  try {
    await render(q);
    return null;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === 'string' && digest.startsWith('NEXT_REDIRECT')) return digest;
    throw error;
  }
}

describe('/search', () => {
  let database: Database;
  let site: SiteContent;

  beforeAll(async () => {
    database = await createTestDatabase();
    useDatabase(database); // what getDb() answers the page
    site = createSiteContent({ db: database.db });
    state.client = site.client;
    await createContent(database.db, findEndpoint('posts')!, {
      id: 'members-post',
      status: 'publish',
      body: {
        title: '会員限定の結末',
        body: `<p>リードの一段落目。</p>${MEMBERS_DIVIDER.html}<p>結末には合言葉${SECRET_WORD}が隠されている。</p>`,
        isPublicPreview: false,
      },
    });
  });
  afterAll(async () => {
    site.dispose();
    useDatabase(undefined);
    await database.close();
  });

  it('shows each viewer only what they could find by reading', async () => {
    state.viewer = { kind: 'anonymous' };
    expect(await render(SECRET_WORD)).not.toContain('/posts/members-post');
    expect(await render('リードの一段落目')).toContain('/posts/members-post');
    state.viewer = { kind: 'member', paid: true };
    const paid = await render(SECRET_WORD);
    expect(paid).toContain('/posts/members-post');
    expect(paid).toContain(`<mark>${SECRET_WORD}</mark>`);
  });

  it('sends a client past 60 searches a minute to the 429 page, and counts only searches', async () => {
    state.viewer = { kind: 'anonymous' };
    state.ip = '192.0.2.50';
    // Only the clock: the database keeps its own timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:10Z'));
    try {
      for (let i = 0; i < 60; i++) expect(await redirectOf(`言葉${i}`)).toBeNull();
      // The page without a query runs no search and is not counted.
      expect(await redirectOf('')).toBeNull();
      expect(await redirectOf('言葉')).toMatch(
        /^NEXT_REDIRECT;[a-z]+;\/search\/busy\?q=%E8%A8%80%E8%91%89&after=50;307;/,
      );
    } finally {
      vi.useRealTimers();
    }
    state.ip = '192.0.2.51';
    expect(await redirectOf('言葉')).toBeNull();
  });
});
