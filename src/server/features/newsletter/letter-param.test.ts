import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AUDIENCES } from '@/server/features/audience/audience';
import { cacheablePath, pageKey } from '@/server/features/front/page-cache';
import { hasLetterParam, letterPostUrl, letterVisit } from './letter-param';

const LETTER = '0f8fad5b-d9cb-469f-a165-70867728950e';
const request = (url: string) =>
  ({ url, method: 'GET', headers: {} }) as unknown as IncomingMessage;

describe('the letter parameter', () => {
  it('is put on the post address of a letter, absolute', () => {
    expect(letterPostUrl('https://axis.example.jp', 'post-1', LETTER)).toBe(
      `https://axis.example.jp/posts/post-1?nl=${LETTER}`,
    );
  });

  it('is read from a request target, and the target without it kept', () => {
    expect(letterVisit(`/posts/p1?nl=${LETTER}`)).toEqual({
      letterId: LETTER,
      contentId: 'p1',
      cleanUrl: '/posts/p1',
    });
    expect(letterVisit(`/posts/p1?page=2&nl=${LETTER.toUpperCase()}`)).toEqual({
      letterId: LETTER,
      contentId: 'p1',
      cleanUrl: '/posts/p1?page=2',
    });
    // A value that is no letter id is dropped, never counted; other pages lose it all the same.
    expect(letterVisit('/posts/p1?nl=1%27%20OR%201=1')).toMatchObject({
      letterId: null,
      cleanUrl: '/posts/p1',
    });
    expect(letterVisit(`/?nl=${LETTER}`)).toMatchObject({ contentId: null, cleanUrl: '/' });
    expect(letterVisit('/posts/p1?page=2')).toBeNull();
    expect(letterVisit('/posts/p1')).toBeNull();
    expect(hasLetterParam('/posts/p1?nlx=1')).toBe(false);
  });

  it('never splits nor enters the per-audience page cache', () => {
    const withLetter = request(`/posts/p1?nl=${LETTER}`);
    // Were such a request to reach the cache, it is rendered past it, never kept or served.
    expect(cacheablePath(withLetter)).toBeNull();
    expect(cacheablePath(request(`/posts/p1?page=2&nl=${LETTER}`))).toBeNull();
    // The redirect's target is the one page every reader of the audience shares.
    const target = request(letterVisit(withLetter.url!)!.cleanUrl);
    expect(cacheablePath(target)).toBe('/posts/p1');
    for (const audience of AUDIENCES)
      expect(pageKey(target, audience)).toBe(pageKey(request('/posts/p1'), audience));
  });
});
