import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { type ContentChange, onContentChange } from './events';
import { findEndpoint } from '@/lib/cms/model';
import { createContent, deleteContent, publishContent, updateContent } from './store';

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
