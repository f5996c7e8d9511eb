import { describe, expect, it, vi } from 'vitest';
import type { ContentClient, ContentQueries, GetRequest } from '@/server/features/content/client';
import { FEED_SIZE, feedResponse, readFeedPosts } from './feed';

type Stored = {
  id: string;
  title: string;
  description?: string;
  isPublicPreview: boolean;
  body: string;
  publishedAt: string;
  createdAt: string;
  category: { id: string; name: string } | null;
  writers: { id: string; name: string }[];
};

const stored: Stored[] = [
  {
    id: 'open',
    title: '公開記事',
    description: '誰でも読める',
    isPublicPreview: true,
    body: '<p>OPEN-BODY</p>',
    publishedAt: '2026-02-01T00:00:00.000Z',
    createdAt: '2026-02-01T00:00:00.000Z',
    category: { id: 'c', name: '特集' },
    writers: [{ id: 'w', name: '山田' }],
  },
  {
    id: 'members',
    title: '会員記事',
    description: '会員向け',
    isPublicPreview: false,
    body: '<p>MEMBERS-BODY</p>',
    publishedAt: '2026-01-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    category: null,
    writers: [],
  },
];

/** Answers like the content API: `fields` narrows, `ids` and the one filter used here apply. */
function fakeClient() {
  const requests: ContentQueries[] = [];
  const get = vi.fn(({ queries = {}, schema }: GetRequest<unknown>) => {
    requests.push(queries);
    let list = stored;
    if (queries.ids) list = list.filter((p) => String(queries.ids).split(',').includes(p.id));
    if (queries.filters === 'isPublicPreview[equals]true')
      list = list.filter((p) => p.isPublicPreview);
    const fields = String(queries.fields).split(',');
    const pick = (p: Stored) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const [head, sub] = f.split('.') as [keyof Stored, string | undefined];
        const value = p[head];
        if (!sub) out[head] = value;
        else if (Array.isArray(value))
          out[head] = value.map((v) => ({ [sub]: (v as Record<string, unknown>)[sub] }));
        else if (value && typeof value === 'object')
          out[head] = { ...(out[head] as object), [sub]: (value as Record<string, unknown>)[sub] };
        else out[head] = value;
      }
      return out;
    };
    const answer = {
      contents: list.slice(0, queries.limit ?? 10).map(pick),
      totalCount: list.length,
    };
    return Promise.resolve(schema ? schema.parse(answer) : answer);
  });
  return { client: { get } as unknown as Pick<ContentClient, 'get'>, requests };
}

describe('reading the feed', () => {
  it('reads the 50 newest posts without bodies, then only the public previews’ bodies', async () => {
    const { client, requests } = fakeClient();
    const posts = await readFeedPosts(client);
    expect(requests[0]).toMatchObject({ limit: FEED_SIZE, orders: '-publishedAt' });
    expect(String(requests[0]!.fields).split(',')).not.toContain('body');
    expect(requests[1]).toMatchObject({
      ids: ['open'],
      fields: 'id,isPublicPreview,body',
      filters: 'isPublicPreview[equals]true',
    });
    expect(requests).toHaveLength(2);
    expect(posts).toEqual([
      expect.objectContaining({
        id: 'open',
        isPublicPreview: true,
        bodyHtml: '<p>OPEN-BODY</p>',
        category: '特集',
        authors: ['山田'],
      }),
      expect.objectContaining({ id: 'members', isPublicPreview: false, bodyHtml: undefined }),
    ]);
  });

  it('makes no body request when every post is members-only', async () => {
    const { client, requests } = fakeClient();
    stored[0]!.isPublicPreview = false;
    try {
      const posts = await readFeedPosts(client);
      expect(requests).toHaveLength(1);
      expect(posts.every((p) => p.bodyHtml === undefined)).toBe(true);
    } finally {
      stored[0]!.isPublicPreview = true;
    }
  });

  it('answers RSS with its content type and a short public cache, never a members’ body', async () => {
    const { client } = fakeClient();
    const response = await feedResponse(client, {
      siteUrl: 'https://axis.example.jp',
      siteName: 'AXIS Membership',
    });
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=300\b/);
    const xml = await response.text();
    expect(xml).toContain('OPEN-BODY');
    expect(xml).not.toContain('MEMBERS-BODY');
    expect(xml).toContain('<title>会員記事</title>');
    expect(xml).toContain('<description>会員向け</description>');
  });
});
