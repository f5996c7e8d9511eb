import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { type ContentChange, onContentChange } from './events';
import { findEndpoint } from '@/lib/cms/model';
import { createContent, deleteContent, updateContent } from './store';

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
});
