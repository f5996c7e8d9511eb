import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppUser } from '@/server/features/identity/session-user';
import { appUser } from '@test-support/route-tests';

// A staff page answers the 404 page to anyone else, and its metadata must not name it: Next
// resolves a page's metadata even when the page calls notFound(), so the head (and the RSC
// payload) of the 404 would carry the staff page's title. The pages run their real gates here,
// on a faked session.

const state = vi.hoisted(() => ({ user: null as AppUser | null }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(new Headers()) }));
vi.mock('@/server/features/identity/session-user', () => ({ userFromHeaders: () => state.user }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/server/features/partners/contracts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  partnerIdOfUser: () => Promise.resolve(state.user?.role === 'member' ? 'partner-1' : ''),
}));
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string }) => ({ title: input.title }),
}));

const { notFoundMetadata } = await import('@/components/system/not-found-metadata');
const axisAdmin = await import('./biz/axis-admin/page');
const users = await import('./admin/users/page');

const user = (role: AppUser['role']): AppUser => appUser(`${role}-1`, role, role);
const props = { searchParams: Promise.resolve({}) };

/** The metadata a viewer gets for a page module, as Next asks for it. */
async function metadataOf(page: object, viewer: AppUser | null) {
  state.user = viewer;
  expect(page).not.toHaveProperty('metadata');
  const { generateMetadata } = page as { generateMetadata: (p: unknown) => Promise<unknown> };
  return generateMetadata(props);
}

beforeEach(() => {
  state.user = null;
});

describe('the metadata of a staff page a viewer may not see', () => {
  it("is the 404 page's, never the partner programme's title, for a visitor or a member", async () => {
    for (const viewer of [null, user('member')]) {
      const metadata = await metadataOf(axisAdmin, viewer);
      expect(metadata).toEqual(notFoundMetadata);
      expect(JSON.stringify(metadata)).not.toContain('パートナープログラムの管理');
    }
    expect(await metadataOf(axisAdmin, user('editor'))).toEqual({
      title: 'パートナープログラムの管理',
    });
  });

  it('follows the page’s own gate: an editor gets the 404 metadata of an admin-only page', async () => {
    expect(await metadataOf(users, null)).toEqual(notFoundMetadata);
    expect(await metadataOf(users, user('editor'))).toEqual(notFoundMetadata);
    expect(await metadataOf(users, user('admin'))).toEqual({ title: 'ユーザー' });
  });
});

/** Every page.tsx below `dir` (a folder of src/app). */
function pagesUnder(dir: string): string[] {
  const root = path.join(import.meta.dirname, dir);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => path.basename(file) === 'page.tsx')
    .map((file) => path.join(dir, file));
}

describe('the staff areas', () => {
  // The console, the partner programme's screens and the partners' dashboards: all behind a gate
  // that answers the 404 page, so none may carry a static title.
  const pages = [
    ...pagesUnder('admin'),
    ...pagesUnder('biz/axis-admin'),
    ...pagesUnder('biz/partner-admin'),
  ];

  it.each(pages)('%s builds its metadata behind its gate', (page) => {
    const source = readFileSync(path.join(import.meta.dirname, page), 'utf8');
    expect(source).not.toMatch(/export const metadata\b/);
    expect(source).toMatch(/export const generateMetadata = gatedMetadata\(/);
  });
});
