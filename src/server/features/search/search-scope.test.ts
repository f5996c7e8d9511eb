import { describe, expect, it } from 'vitest';
import type { Viewer } from '@/lib/access/post-access';
import { mediaSearchScope, postsSearchScope } from './search-scope';

const FREE_PLAN = ['a', 'b', 'c'];
const viewers: Record<string, Viewer> = {
  anonymous: { kind: 'anonymous' },
  free: { kind: 'member', paid: false },
  paid: { kind: 'member', paid: true },
  staff: { kind: 'staff' },
  preview: { kind: 'preview' },
};

describe('search scopes from the access policy', () => {
  it('posts: open text for anonymous, plus the free plan whole for a free member', () => {
    expect(postsSearchScope(viewers.anonymous!, FREE_PLAN)).toEqual({ kind: 'open', fullIds: [] });
    expect(postsSearchScope(viewers.free!, FREE_PLAN)).toEqual({
      kind: 'open',
      fullIds: FREE_PLAN,
    });
    for (const name of ['paid', 'staff', 'preview'])
      expect(postsSearchScope(viewers[name]!, FREE_PLAN), name).toEqual({ kind: 'full' });
  });

  it('audio and movies: whole for paid readers and staff only', () => {
    expect(mediaSearchScope(viewers.anonymous!)).toEqual({ kind: 'open' });
    expect(mediaSearchScope(viewers.free!)).toEqual({ kind: 'open' });
    for (const name of ['paid', 'staff', 'preview'])
      expect(mediaSearchScope(viewers[name]!), name).toEqual({ kind: 'full' });
  });
});
