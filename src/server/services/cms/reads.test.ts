import { describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { ANY_CONTENT, type ContentChange, SEARCH_TEXT_CHANGED } from './events';
import { publishedEdit } from './change';
import { affects, readsOfAnswer } from './reads';

const list = (endpoint: string, query: string, contents: unknown[]) =>
  readsOfAnswer(endpoint, undefined, new URLSearchParams(query), { contents, totalCount: 9 });
const edit = (endpoint: string, id: string, fields: string[]): ContentChange => ({
  endpoint,
  id,
  fields,
  membership: false,
  narrows: false,
});

describe('what an answer read', () => {
  it('an item, found or not, and the items its references expanded', () => {
    const reads = readsOfAnswer('posts', 'a', new URLSearchParams(), {
      id: 'a',
      category: { id: 'c1', name: '特集' },
      writers: [{ id: 'w1' }, { id: 'w2' }],
      relatedPosts: [{ id: 'b', writers: [{ id: 'w3' }] }],
    });
    expect([...reads.items.keys()].sort()).toEqual(
      ['categories/c1', 'posts/a', 'posts/b', 'writers/w1', 'writers/w2', 'writers/w3'].sort(),
    );
    expect(reads.lists.size).toBe(0);
    expect([
      ...readsOfAnswer('posts', 'gone', new URLSearchParams(), undefined).items.keys(),
    ]).toEqual(['posts/gone']);
  });

  it('a list: the fields its filters and orders look at, its items and the ids it asked for', () => {
    const reads = list(
      'posts',
      'filters=isPublicPreview[equals]true[and]category[equals]c1&orders=-publishedAt&ids=x,y',
      [{ id: 'x' }],
    );
    expect(reads.lists.get('posts')).toEqual(
      new Set(['isPublicPreview', 'category', 'publishedAt']),
    );
    expect([...reads.items.keys()].sort()).toEqual(['posts/x', 'posts/y']);
  });

  it('any field of the endpoint for a search, or for items selected without their ids', () => {
    expect(list('posts', 'q=デザイン', []).lists.get('posts')).toBe('*');
    expect(list('posts', 'fields=title', [{ title: 't' }]).lists.get('posts')).toBe('*');
  });

  it('an object endpoint by its one item', () => {
    expect([...readsOfAnswer('about', undefined, new URLSearchParams(), {}).items.keys()]).toEqual([
      'about/',
    ]);
  });
});

describe('whether a change affects what was read', () => {
  const newest = list('posts', 'orders=-publishedAt&limit=3', [{ id: 'p1' }, { id: 'p2' }]);

  it('an edit of an item in the list, not of another', () => {
    expect(affects(newest, edit('posts', 'p2', ['description']))).toBe(true);
    expect(affects(newest, edit('posts', 'p9', ['description']))).toBe(false);
    expect(affects(newest, edit('writers', 'p2', ['name']))).toBe(false);
  });

  it('another item moving in the order the list reads, or any item coming or going', () => {
    expect(affects(newest, edit('posts', 'p9', ['publishedAt']))).toBe(true);
    expect(affects(newest, { endpoint: 'posts', id: 'p9' })).toBe(true);
    expect(affects(newest, { endpoint: 'posts', id: 'p9', membership: true, fields: [] })).toBe(
      true,
    );
  });

  it('an edit of a field the answer did not carry leaves a list read with selected fields', () => {
    // The free plan's list (fields=id): which members' posts are newest, not what they say.
    const ids = list('posts', 'fields=id&filters=isPublicPreview[not_equals]true&limit=3', [
      { id: 'p1' },
    ]);
    expect(affects(ids, edit('posts', 'p1', ['description', 'updatedAt', 'revisedAt']))).toBe(
      false,
    );
    expect(affects(ids, edit('posts', 'p1', ['isPublicPreview']))).toBe(true);
    expect(affects(ids, { endpoint: 'posts', id: 'p1' })).toBe(true);
    // Cards carry the description and their category's name, not its other fields.
    const cards = list('posts', 'fields=id,title,description,category.id,category.name', [
      { id: 'p1', title: 't', category: { id: 'c1', name: '特集' } },
    ]);
    expect(affects(cards, edit('posts', 'p1', ['description']))).toBe(true);
    expect(affects(cards, edit('posts', 'p1', ['coverImage']))).toBe(false);
    expect(affects(cards, edit('categories', 'c1', ['name']))).toBe(true);
    expect(affects(cards, edit('categories', 'c1', ['description']))).toBe(false);
    // A field absent from the answer (an empty description) is carried all the same.
    expect(affects(cards, edit('posts', 'p1', ['description']))).toBe(true);
    // Items asked for by id, found or not: each with the fields selected.
    const asked = list('posts', 'fields=id,title&ids=x,y,z', []);
    for (const id of ['x', 'y', 'z']) {
      expect(affects(asked, edit('posts', id, ['title'])), id).toBe(true);
      expect(affects(asked, edit('posts', id, ['description'])), id).toBe(false);
    }
    // Without `fields`, every field.
    expect(affects(newest, edit('posts', 'p1', ['coverImage']))).toBe(true);
  });

  it('everything after a gap in the bus; a search reindex only searches', () => {
    const about = readsOfAnswer('about', undefined, new URLSearchParams(), {});
    expect(affects(about, ANY_CONTENT)).toBe(true);
    const reindexed = SEARCH_TEXT_CHANGED;
    expect(affects(about, reindexed)).toBe(false);
    expect(affects(newest, reindexed)).toBe(false);
    expect(affects(list('posts', 'q=椅子', []), reindexed)).toBe(true);
  });
});

describe('the change an edit of a published item makes', () => {
  const posts = findEndpoint('posts')!;
  it('names the fields that changed; narrows when the body, the paywall switch or the date moves', () => {
    const before = { title: 't', description: 'a', body: '<p>x</p>', isPublicPreview: true };
    const described = publishedEdit(posts, 'p', before, { ...before, description: 'b' }, [
      'updatedAt',
    ]);
    expect(described).toEqual({
      endpoint: 'posts',
      id: 'p',
      fields: ['updatedAt', 'description'],
      membership: false,
      narrows: false,
    });
    for (const after of [
      { ...before, isPublicPreview: false },
      { ...before, body: '<hr data-members-divider /><p>x</p>' },
    ])
      expect(publishedEdit(posts, 'p', before, after, []).narrows).toBe(true);
    expect(publishedEdit(posts, 'p', before, before, ['publishedAt']).narrows).toBe(true);
  });
});
