import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppUser } from '@/server/features/identity/session-user';
import { appUser } from '@test-support/route-tests';

// An organisation's invoice: a visitor is sent to sign in; a signed-in reader gets it only when
// invoiceForViewer finds it for them (the site's admins, or that organisation's admins: see
// organizations/org-billing.integration.test.ts), else the 404 page, as for an unknown id.

const state = vi.hoisted(() => ({ user: null as AppUser | null, asked: [] as string[] }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(new Headers()) }));
vi.mock('@/server/features/identity/session-user', () => ({ userFromHeaders: () => state.user }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string }) => ({ title: input.title }),
}));
vi.mock('@/server/features/invoice-billing', () => ({
  invoiceForViewer: (_db: unknown, viewer: AppUser, id: string) => {
    state.asked.push(`${viewer.id}:${id}`);
    return Promise.resolve(null);
  },
}));

const page = await import('./page');

const props = { params: Promise.resolve({ invoiceId: 'in_abc' }) };
const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' };

beforeEach(() => {
  state.user = null;
  state.asked = [];
});

describe('/invoices/[invoiceId]', () => {
  it('sends a visitor to sign in, without asking the provider', async () => {
    await expect(page.default(props)).rejects.toMatchObject({
      digest: expect.stringContaining('/login?next=%2Finvoices%2Fin_abc') as string,
    });
    expect(state.asked).toEqual([]);
  });

  it('is the 404 page for a reader the invoice is not found for, and for an id no invoice has', async () => {
    for (const viewer of [appUser('m', 'member', 'm'), appUser('a', 'admin', 'a')]) {
      state.user = viewer;
      expect(await page.generateMetadata(props)).toEqual({ title: '請求書' });
      await expect(page.default(props)).rejects.toMatchObject(notFound);
    }
    expect(state.asked).toEqual(['m:in_abc', 'a:in_abc']);
    await expect(
      page.default({ params: Promise.resolve({ invoiceId: 'cus_abc' }) }),
    ).rejects.toMatchObject(notFound);
    expect(state.asked).toEqual(['m:in_abc', 'a:in_abc']);
  });
});
