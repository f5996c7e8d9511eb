import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { type ContentChange, onContentChange } from './events';
import { findEndpoint } from '@/lib/cms/model';
import { type ItemRef, onItemPublication } from './item-hooks';
import { getContent } from './store';
import {
  createContent,
  deleteContent,
  publishContent,
  scheduleContent,
  unpublishContent,
  updateContent,
} from './writes';

/**
 * Which writes tell the caches (every instance's pages and API answers) that published content
 * changed: a draft changes no published answer, so it must not empty every reader's cache.
 */
describe('content changes told to the caches', () => {
  const database = testDatabase({ global: false });
  const heard: ContentChange[] = [];
  let stop: () => void;
  const tags = findEndpoint('tags')!;

  beforeAll(() => {
    stop = onContentChange((change) => heard.push(change));
  });
  afterEach(() => {
    heard.length = 0;
  });
  afterAll(() => {
    stop();
  });

  it('says nothing of a draft created or edited', async () => {
    await createContent(database.db, tags, {
      id: 'draft-tag',
      body: { name: '下書き' },
      status: 'draft',
    });
    await updateContent(database.db, tags, 'draft-tag', { name: '下書き 2' }, { draft: true });
    expect(heard).toEqual([]);
  });

  it('tells of a publication, an edit of the published text and a deletion', async () => {
    // A PATCH of an item that is only a draft keeps it a draft (microCMS): still nothing.
    await updateContent(database.db, tags, 'draft-tag', { name: '下書き 3' }, { draft: false });
    await createContent(database.db, tags, {
      id: 'live-tag',
      body: { name: '公開中' },
      status: 'publish',
    });
    await updateContent(database.db, tags, 'live-tag', { name: '公開中 2' }, { draft: false });
    // A pending draft of a published item leaves its published answer as it was.
    await updateContent(database.db, tags, 'live-tag', { name: '次の版' }, { draft: true });
    await deleteContent(database.db, tags, 'live-tag');
    expect(heard.map((c) => c.id)).toEqual(['live-tag', 'live-tag', 'live-tag']);
  });

  it('says what an edit changed, so caches purge only what showed it', async () => {
    const posts = findEndpoint('posts')!;
    await createContent(database.db, posts, {
      id: 'told-post',
      body: { title: '題', description: '前', body: '<p>本文</p>', isPublicPreview: true },
      status: 'publish',
    });
    await updateContent(database.db, posts, 'told-post', { description: '後' }, { draft: false });
    // A working copy published over the published version: an edit of what differs.
    await updateContent(
      database.db,
      posts,
      'told-post',
      { isPublicPreview: false },
      { draft: true },
    );
    await publishContent(database.db, posts, 'told-post');
    const [created, edited, published] = heard;
    expect(created).toEqual({ endpoint: 'posts', id: 'told-post' }); // an item came: everything
    expect(edited).toMatchObject({ membership: false, narrows: false });
    expect(edited!.fields).toContain('description');
    expect(edited!.fields).not.toContain('title');
    expect(published).toMatchObject({ membership: false, narrows: true });
    expect(published!.fields).toContain('isPublicPreview');
  });
});

const SYSTEM = { actor: 'system' };

/**
 * What a feature subscribes to in the store's own transaction (item-hooks.ts): the newsletter
 * queues its sends with the publication, so the two commit together or neither does.
 */
describe('publication hooks', () => {
  const database = testDatabase({ global: false });
  const tags = findEndpoint('tags')!;
  const calls: string[] = [];
  const note = (kind: string) => (_tx: unknown, item: ItemRef) => {
    calls.push(`${kind} ${item.endpoint}/${item.id}`);
    return Promise.resolve();
  };

  it('runs on publication, unpublication and a cleared schedule, not on a set one', async () => {
    const stop = onItemPublication({ published: note('published'), withdrawn: note('withdrawn') });
    try {
      await createContent(database.db, tags, {
        id: 'hooked',
        body: { name: '下書き' },
        status: 'draft',
      });
      await scheduleContent(database.db, tags, 'hooked', new Date(Date.now() + 60_000), SYSTEM);
      await scheduleContent(database.db, tags, 'hooked', null, SYSTEM);
      await publishContent(database.db, tags, 'hooked');
      await unpublishContent(database.db, tags, 'hooked', SYSTEM);
    } finally {
      stop();
    }
    expect(calls).toEqual([
      'withdrawn tags/hooked',
      'published tags/hooked',
      'withdrawn tags/hooked',
    ]);
  });

  it('rolls the publication back with a subscriber that fails', async () => {
    await createContent(database.db, tags, {
      id: 'refused',
      body: { name: '下書き' },
      status: 'draft',
    });
    const stop = onItemPublication({
      published: () => Promise.reject(new Error('the subscriber failed')),
    });
    try {
      await expect(publishContent(database.db, tags, 'refused')).rejects.toThrow(
        'the subscriber failed',
      );
    } finally {
      stop();
    }
    // Still unpublished: a published read does not find it.
    await expect(
      getContent(database.db, tags, 'refused', { depth: 0 }, { kind: 'published' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
