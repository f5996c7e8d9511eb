import { describe, expect, it } from 'vitest';
import { accountMetadata } from '@/components/account/metadata';
import { newsletterPageMetadata, newsletterPostId } from './post-page';

const params = (endpoint: string, contentId: string) => Promise.resolve({ endpoint, contentId });

describe('the newsletter pages of a post', () => {
  it('hand on the post of the posts endpoint', async () => {
    expect(await newsletterPostId(params('posts', 'abc'))).toBe('abc');
  });

  it('answer the 404 page under any other endpoint: the newsletter is made of articles', async () => {
    await expect(newsletterPostId(params('movies', 'abc'))).rejects.toThrow(
      'NEXT_HTTP_ERROR_FALLBACK;404',
    );
  });

  it('title the page at its post’s path', async () => {
    const metadata = await newsletterPageMetadata(
      '配信の確認',
      (id) => `/x/${id}`,
    )({
      params: params('posts', 'abc'),
    });
    expect(metadata).toEqual(accountMetadata('配信の確認', '/x/abc'));
  });
});
