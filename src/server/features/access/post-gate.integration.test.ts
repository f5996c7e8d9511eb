import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { PageTestState } from '@test-support/site-content-mock';
import { roleRouteTests } from '@test-support/route-tests';
import { createSiteContent } from '@/server/features/content/site-content';
import {
  SYSTEM_WRITE,
  createContent,
  deleteContent,
  unpublishContent,
  updateContent,
} from '@/server/services/cms/writes';
import { inRequest } from '@/server/platform/http/request-context';

/**
 * The front server's knowledge of a post's gate before the page cache (the amendment of
 * docs/decisions/055-metered-wall.md, "metered reads from the cache"): it must say `paid-only`
 * exactly when the post page itself would put a free member behind a paid plan's paywall, and
 * follow, at once, every change that moves a post in or out of the free plan or the paywall.
 */

const state = vi.hoisted((): PageTestState => ({ viewer: { kind: 'anonymous' }, site: undefined }));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () => Promise.resolve({ get: () => undefined }),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

const { postGate } = await import('./post-gate');
const { readPost } = await import('./read');

const { database } = roleRouteTests('post-gate');
const posts = findEndpoint('posts')!;
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}</p>`;
/** Minutes after the newest seeded post, so these are the newest members' posts. */
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 28, 0, minutes)).toISOString();
const make = (id: string, minutes: number, isPublicPreview = false) =>
  createContent(database.db, posts, {
    id,
    status: 'publish',
    body: { title: `記事 ${id}`, body, isPublicPreview, publishedAt: at(minutes) },
  });

beforeAll(() => {
  state.site = createSiteContent({ db: database.db });
});
afterAll(() => state.site?.dispose());

/** The post page's own decision for a free member: behind a paid plan's paywall or not. */
async function pageSaysPaidOnly(id: string): Promise<boolean | null> {
  state.viewer = { kind: 'member', paid: false };
  const read = await inRequest({ requestId: `gate-${id}` }, () => readPost(id));
  if (!read) return null;
  return !read.full && read.cta.opensWith === 'subscribe';
}

describe('the post gate the front server knows before the cache', () => {
  it('agrees with the post page for every kind of post', async () => {
    await make('gate-open', 0, true);
    for (const n of [1, 2, 3, 4]) await make(`gate-members-${n}`, n);
    const expected = {
      'gate-open': 'open',
      'gate-members-1': 'paid-only', // the fourth newest: past the free plan's three
      'gate-members-2': 'open',
      'gate-members-3': 'open',
      'gate-members-4': 'open',
    } as const;
    for (const [id, kind] of Object.entries(expected)) {
      const gate = await postGate(id);
      expect({ id, kind: gate.kind }).toEqual({ id, kind });
      expect(await pageSaysPaidOnly(id)).toBe(kind === 'paid-only');
    }
  });

  it('names the post the meter keys a read by (its id and creation time)', async () => {
    const gate = await postGate('gate-members-1');
    expect(gate).toEqual({
      kind: 'paid-only',
      post: { id: 'gate-members-1', createdAt: expect.any(String) as string },
    });
    if (gate.kind === 'paid-only')
      expect(Number.isNaN(Date.parse(gate.post.createdAt))).toBe(false);
  });

  it('a missing, malformed or draft id is missing', async () => {
    expect(await postGate('gate-nothing-here')).toEqual({ kind: 'missing' });
    expect(await postGate('../etc')).toEqual({ kind: 'missing' });
    await createContent(database.db, posts, {
      id: 'gate-draft',
      status: 'draft',
      body: { title: '下書き', body, isPublicPreview: false },
    });
    expect(await postGate('gate-draft')).toEqual({ kind: 'missing' });
  });

  it('follows a newer post pushing a post out of the free plan, at once', async () => {
    expect((await postGate('gate-members-2')).kind).toBe('open');
    await make('gate-members-5', 5);
    expect((await postGate('gate-members-2')).kind).toBe('paid-only');
    expect(await pageSaysPaidOnly('gate-members-2')).toBe(true);
    // And deleting the newest brings it back into the free plan.
    await deleteContent(database.db, posts, 'gate-members-5');
    expect((await postGate('gate-members-2')).kind).toBe('open');
    expect((await postGate('gate-members-5')).kind).toBe('missing');
  });

  it('follows the paywall switch and an unpublish, at once', async () => {
    const flip = (isPublicPreview: boolean) =>
      updateContent(database.db, posts, 'gate-members-1', { isPublicPreview }, { draft: false });
    await flip(true);
    expect((await postGate('gate-members-1')).kind).toBe('open');
    await flip(false);
    expect((await postGate('gate-members-1')).kind).toBe('paid-only');
    await unpublishContent(database.db, posts, 'gate-members-1', SYSTEM_WRITE);
    expect((await postGate('gate-members-1')).kind).toBe('missing');
    expect(await pageSaysPaidOnly('gate-members-1')).toBeNull();
  });
});
