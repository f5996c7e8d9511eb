import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppUser } from '@/server/features/identity/session-user';
import { appUser } from '@test-support/route-tests';

// An organisation's invoice is shown to the site's admins only (until organisations let their
// own admins in): anyone else gets the 404 page and its metadata, and the provider is not asked.

const state = vi.hoisted(() => ({ user: null as AppUser | null, asked: [] as string[] }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(new Headers()) }));
vi.mock('@/server/features/identity/session-user', () => ({ userFromHeaders: () => state.user }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string }) => ({ title: input.title }),
}));
vi.mock('@/server/features/invoice-billing', () => ({
  invoiceDocument: (_db: unknown, id: string) => {
    state.asked.push(id);
    return Promise.resolve(null);
  },
}));

const { notFoundMetadata } = await import('@/components/system/not-found-metadata');
const page = await import('./page');

const props = { params: Promise.resolve({ invoiceId: 'in_abc' }) };
const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' };

beforeEach(() => {
  state.user = null;
  state.asked = [];
});

describe('/invoices/[invoiceId]', () => {
  it('is the 404 page for a visitor, a member or an editor, without asking the provider', async () => {
    for (const viewer of [null, appUser('m', 'member', 'm'), appUser('e', 'editor', 'e')]) {
      state.user = viewer;
      expect(await page.generateMetadata(props)).toEqual(notFoundMetadata);
      await expect(page.default(props)).rejects.toMatchObject(notFound);
    }
    expect(state.asked).toEqual([]);
  });

  it('looks the invoice up for an admin, and is the 404 page for an id no invoice has', async () => {
    state.user = appUser('a', 'admin', 'a');
    expect(await page.generateMetadata(props)).toEqual({ title: '請求書' });
    await expect(page.default(props)).rejects.toMatchObject(notFound);
    expect(state.asked).toEqual(['in_abc']);
    await expect(
      page.default({ params: Promise.resolve({ invoiceId: 'cus_abc' }) }),
    ).rejects.toMatchObject(notFound);
    expect(state.asked).toEqual(['in_abc']);
  });
});
