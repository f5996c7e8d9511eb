import { describe, expect, it } from 'vitest';
import { contentForPath, pathForContent } from './content-path';

describe('contentForPath', () => {
  it.each([
    ['/posts/abc123', 'posts', 'abc123'],
    ['/audios/a-1', 'audios', 'a-1'],
    ['/movies/m_2', 'movies', 'm_2'],
    ['/connect/c3', 'connect', 'c3'],
    ['/jobs/j4', 'jobs', 'j4'],
    ['/feature/issue-210', 'categories', 'issue-210'],
    ['/posts/abc123/', 'posts', 'abc123'],
    ['/posts/abc123?page=2#top', 'posts', 'abc123'],
  ])('%s shows %s %s', (path, endpoint, contentId) => {
    expect(contentForPath(path)).toEqual({ endpoint, contentId });
  });

  it.each([
    '/',
    '/posts',
    '/posts/',
    '/posts/bookmark',
    '/posts/abc123/preview',
    '/posts/preview/abc123',
    '/jobs/preview/j4',
    '/feature',
    '/series/s1',
    '/insight/x',
    '/account/edit',
    '/search',
    '/posts/has%20space',
    '/posts/' + 'a'.repeat(51),
    '//posts/abc',
    '/posts//abc',
    '/constructor/x',
    '/__proto__/x',
  ])('%s is not a content view', (path) => {
    expect(contentForPath(path)).toBeNull();
  });
});

describe('pathForContent', () => {
  it('is the inverse of contentForPath', () => {
    for (const path of [
      '/posts/p1',
      '/audios/a1',
      '/movies/m1',
      '/connect/c1',
      '/jobs/j1',
      '/feature/f1',
    ]) {
      const ref = contentForPath(path);
      expect(ref).not.toBeNull();
      expect(pathForContent(ref!)).toBe(path);
    }
  });
});
