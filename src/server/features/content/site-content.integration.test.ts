import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { z } from '@/lib/zod';
import { findEndpoint } from '@/lib/cms/model';
import { getFreePlanPostIds } from './client';
import { type SiteContent, createSiteContent } from './site-content';
import { createContent, deleteContent, updateContent } from '@/server/services/cms/writes';

const posts = findEndpoint('posts')!;
const titled = z.object({ title: z.string(), isPublicPreview: z.boolean() });

describe('the site content client on the built-in service (in process)', () => {
  const database = testDatabase({ global: false });
  let site: SiteContent;

  beforeAll(async () => {
    site = createSiteContent({ db: database.db });
    for (let i = 1; i <= 5; i++) {
      await createContent(database.db, posts, {
        id: `p${i}`,
        body: { title: `記事 ${i}`, isPublicPreview: i === 5 },
        status: 'publish',
      });
      await new Promise((r) => setTimeout(r, 3)); // distinct creation times: "newest" is defined
    }
  });
  afterAll(() => {
    site.dispose();
  });

  it('reads lists and details with the microCMS shapes', async () => {
    const list = await site.client.getList<{ title: string }>({
      endpoint: 'posts',
      queries: { orders: 'id', limit: 2 },
    });
    expect(list.totalCount).toBe(5);
    expect(list.contents.map((c) => c.title)).toEqual(['記事 1', '記事 2']);
    const detail = await site.client.getListDetail<{ title: string }>({
      endpoint: 'posts',
      contentId: 'p3',
    });
    expect(detail.title).toBe('記事 3');
  });

  it('fails like the SDK on a 404 and on a bad query', async () => {
    await expect(
      site.client.getListDetail({ endpoint: 'posts', contentId: 'nothere' }),
    ).rejects.toThrow(/^fetch API response status: 404$/);
    await expect(
      site.client.getList({ endpoint: 'posts', queries: { limit: 5000 } }),
    ).rejects.toThrow("fetch API response status: 400\n  message is `Invalid 'limit' value.`");
  });

  it('lists the free-plan posts: the 3 newest members-only ones', async () => {
    expect(await getFreePlanPostIds(site.client)).toEqual(['p4', 'p3', 'p2']);
  });

  it('sees every change at once (the service drops its cached answers)', async () => {
    const read = async () =>
      (await site.client.getListDetail<{ title: string }>({ endpoint: 'posts', contentId: 'p1' }))
        .title;
    expect(await read()).toBe('記事 1');
    expect(await read()).toBe('記事 1'); // now cached
    await updateContent(database.db, posts, 'p1', { title: '改題' }, { draft: false });
    expect(await read()).toBe('改題');
    await deleteContent(database.db, posts, 'p2');
    await expect(site.client.getListDetail({ endpoint: 'posts', contentId: 'p2' })).rejects.toThrow(
      /404/,
    );
  });

  it('keeps one frozen, validated answer per read until a change to what it read drops it', async () => {
    const read = () =>
      site.client.getListDetail({ endpoint: 'posts', contentId: 'p3', schema: titled });
    const first = await read();
    // The same object again: no JSON, no zod; and no reader can change it for the next one.
    expect(await read()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { title: string }).title = '書き換え';
    }).toThrow(TypeError);
    await updateContent(database.db, posts, 'p4', { title: '別の記事' }, { draft: false });
    expect(await read()).toBe(first); // another item's edit leaves it
    await updateContent(database.db, posts, 'p3', { title: '改題 3' }, { draft: false });
    const edited = await read();
    expect(edited.title).toBe('改題 3');
    expect(await read()).toBe(edited);
  });

  it('answers a change that narrows access at once, in the item and in the lists', async () => {
    const read = () =>
      site.client.getListDetail({ endpoint: 'posts', contentId: 'p5', schema: titled });
    expect((await read()).isPublicPreview).toBe(true);
    const freePlan = await getFreePlanPostIds(site.client);
    expect(freePlan).not.toContain('p5');
    await updateContent(database.db, posts, 'p5', { isPublicPreview: false }, { draft: false });
    expect((await read()).isPublicPreview).toBe(false);
    expect((await getFreePlanPostIds(site.client))[0]).toBe('p5'); // the newest members' post
  });
});
