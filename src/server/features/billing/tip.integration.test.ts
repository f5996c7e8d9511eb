import { and, eq } from 'drizzle-orm';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { TIP_AMOUNT_MESSAGE } from '@/lib/billing/tip';
import { taxIn } from '@/lib/billing/purchase';
import type { AppUser } from '@/server/features/identity';
import type { PageTestState } from '@test-support/site-content-mock';
import { useBillingSite } from '@test-support/billing-site';
import { createSiteContent } from '@/server/features/content/site-content';
import { audienceChangedSince } from '@/server/features/audience';
import { useDatabase } from '@/server/platform/db/client';
import {
  auditEvents,
  billingInvoices,
  mailOutbox,
  purchases,
  user,
} from '@/server/platform/db/schema';
import { createContent } from '@/server/services/cms/writes';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from './webhook';
import { customerIdOf } from './customers';
import { hasPaidPurchase, listPaidTips, purchaseById } from '@/server/features/purchases';

/**
 * The attack tests of tips (チップ, docs/decisions/053-one-time-payments.md), through the
 * checkout endpoint as a browser posts to it, on a real database and the billing sandbox: the
 * amount is validated at the boundary and nothing is written for a bad one, the row and the
 * session carry exactly the validated amount, only the provider's events move the row, the payer
 * is the signed-in reader, and a tip opens nothing.
 */

const state = vi.hoisted((): PageTestState & { user: AppUser | null } => ({
  viewer: { kind: 'anonymous' },
  site: undefined,
  user: null,
}));
vi.mock('next/headers', () => ({
  headers: () => Promise.resolve(new Headers()),
  cookies: () => Promise.resolve({ get: () => undefined }),
}));
vi.mock('@/server/features/access/current-viewer', async () =>
  (await import('@test-support/site-content-mock')).currentViewerFromState(state),
);
vi.mock('@/server/features/identity/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  sessionUser: () => Promise.resolve(state.user),
}));
vi.mock('@/server/features/identity/session-user', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  userFromHeaders: () => Promise.resolve(state.user),
}));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

const { handleCheckoutStart } = await import('./billing-http');
const { readPost } = await import('@/server/features/access/read');
const { default: PurchaseStatusPage } = await import('@/app/purchase/status/[purchaseId]/page');
const { default: AdminTipsPage } = await import('@/app/admin/tips/page');

const POST = 'tipped-post';
const FREE_POST = 'tipped-free-post';
const DRAFT = 'tipped-draft';
const REPORTED = 'tip-report-post';
const SECRET = 'チップデハヒラカナイ';
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`;

describe('tips', () => {
  const site = useBillingSite();
  const posts = findEndpoint('posts')!;

  beforeAll(async () => {
    useDatabase(site.database);
    state.site = createSiteContent({ db: site.db });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
    await createContent(site.db, posts, {
      id: POST,
      status: 'publish',
      body: { title: 'チップの記事', body, isPublicPreview: false, publishedAt: at(0) },
    });
    await createContent(site.db, posts, {
      id: FREE_POST,
      status: 'publish',
      body: { title: '無料の記事', body: '<p>x</p>', isPublicPreview: true, publishedAt: at(1) },
    });
    await createContent(site.db, posts, {
      id: DRAFT,
      status: 'draft',
      body: { title: '下書き', body: '<p>x</p>', isPublicPreview: true },
    });
    await createContent(site.db, posts, {
      id: REPORTED,
      status: 'publish',
      body: { title: '集計の記事', body: '<p>x</p>', isPublicPreview: true, publishedAt: at(2) },
    });
    // Three newer members' posts: the free plan leaves POST paid only.
    for (const n of [1, 2, 3]) {
      await createContent(site.db, posts, {
        id: `tip-newer-${n}`,
        status: 'publish',
        body: { title: `新しい ${n}`, body, isPublicPreview: false, publishedAt: at(10 + n) },
      });
    }
  });
  afterAll(() => {
    state.site?.dispose();
    useDatabase(undefined);
  });

  const reader = async (): Promise<AppUser> => ({
    ...(await site.newReader('tipper')),
    role: 'member',
    emailVerified: true,
  });

  /** The confirmation screen's form, posted by `who` (JSON answers for a real status). */
  async function tip(who: AppUser | null, fields: Record<string, string>) {
    state.user = who;
    return handleCheckoutStart(
      new Request('http://localhost:3000/api/billing/checkout', {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: 'http://localhost:3000',
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ purchase: 'tip', post: POST, method: 'card', ...fields }),
      }),
    );
  }
  const rowsOf = (who: AppUser) =>
    site.db.select().from(purchases).where(eq(purchases.userId, who.id));
  /** A tip started through the endpoint: its row (and the hosted page's address). */
  async function started(who: AppUser, fields: Record<string, string> = {}) {
    const response = await tip(who, { amount: '500', ...fields });
    expect(response.status).toBe(303);
    const url = response.headers.get('location')!;
    const sessionId = url.split('/').at(-1)!;
    const [row] = await site.db.select().from(purchases).where(eq(purchases.sessionId, sessionId));
    expect(row).toBeDefined();
    return { url, row: row! };
  }
  const status = async (who: AppUser, id: string) => {
    state.user = who;
    return renderToStaticMarkup(
      await PurchaseStatusPage({ params: Promise.resolve({ purchaseId: id }) }),
    );
  };

  it('refuses an amount below ¥100, above ¥10,000 or not whole yen, writing nothing', async () => {
    const who = await reader();
    for (const amount of [
      '99',
      '0',
      '10001',
      '150.5',
      '-500',
      '1e3',
      '99999999999999999999999',
      'abc',
      '',
      '0x1f4',
      'Infinity',
    ]) {
      const response = await tip(who, { amount });
      expect(response.status, amount).toBe(400);
      const answer = (await response.json()) as { fieldErrors: Record<string, string> };
      expect(answer.fieldErrors.amount, amount).toBe(TIP_AMOUNT_MESSAGE);
    }
    // No amount at all, and a message past its limit.
    expect((await tip(who, { amount: undefined as unknown as string })).status).toBe(400);
    const long = await tip(who, { amount: '500', message: 'あ'.repeat(501) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toContain('500文字以内');
    expect(await rowsOf(who)).toEqual([]);
    // Not even a customer at the provider, so no session.
    expect(await customerIdOf(site.db, who.id)).toBeNull();
    // Signed out: sign in first, nothing written.
    expect((await tip(null, { amount: '500' })).status).toBe(401);
  });

  it('refuses a tip for a missing post or a draft', async () => {
    const who = await reader();
    for (const post of ['no-such-post', DRAFT]) {
      const response = await tip(who, { amount: '500', post });
      expect(response.status, post).toBe(409);
      expect(((await response.json()) as { message: string }).message).toContain(
        'この記事は見つかりません',
      );
    }
    expect((await tip(who, { amount: '500', post: '../etc' })).status).toBe(400);
    expect(await rowsOf(who)).toEqual([]);
  });

  it('writes the validated amount on a pending tip row and its session, for the signed-in reader only', async () => {
    const who = await reader();
    const other = await reader();
    // Whatever else the form says about who pays, the payer is the session's reader.
    const { url, row } = await started(who, {
      amount: '１，２３４',
      message: '  いつも楽しく読んでいます。\r\n応援しています。 ',
      userId: other.id,
      customer: 'cus_someone_else',
      price: '1',
    });
    expect(row).toMatchObject({
      userId: who.id,
      kind: 'tip',
      endpoint: 'posts',
      contentId: POST,
      title: 'チップの記事',
      amount: 1234,
      tax: taxIn(1234),
      message: 'いつも楽しく読んでいます。\n応援しています。',
      method: 'card',
      state: 'pending',
      customerId: await customerIdOf(site.db, who.id),
    });
    expect(row.contentCreatedAt).toBeInstanceOf(Date);
    const session = await site.stripe.checkout.sessions.retrieve(row.sessionId!);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 1234,
      customer: row.customerId,
      payment_method_types: ['card'],
      metadata: { purchase: row.id, kind: 'tip', post: POST },
    });
    expect(session.invoice_creation?.enabled).toBe(true);
    expect(url).toBe(session.url);
    expect(await rowsOf(other)).toEqual([]);
    // A second tip for the same post, and a tip for a free post: both allowed.
    await started(who, { amount: '100' });
    await started(who, { amount: '300', post: FREE_POST });
    expect((await rowsOf(who)).map((r) => r.amount).sort()).toEqual([100, 1234, 300].sort());
    // Konbini below its minimum is refused; ¥120 and more is offered.
    expect((await tip(who, { amount: '100', method: 'konbini' })).status).toBe(409);
    await started(who, { amount: '120', method: 'konbini' });
    const audit = await site.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'billing.purchase.start'), eq(auditEvents.target, who.id)));
    expect(audit[0]?.detail).toMatchObject({ kind: 'tip', purchase: row.id, amount: 1234 });
  });

  it('is paid by the provider’s event only (not a replayed success URL), opens nothing, and thanks', async () => {
    const who = await reader();
    const { url, row } = await started(who, { amount: '1000', message: 'ありがとう' });
    const paid = await site.pay(url);
    expect(paid.status).toBe(303);
    // The success URL, visited and visited again before the event: it only reads the ledger.
    expect(paid.headers.get('location')).toContain(`/purchase/status/${row.id}`);
    for (let visit = 0; visit < 2; visit += 1) {
      expect(await status(who, row.id)).toContain('お支払いを確認しています');
    }
    expect((await purchaseById(site.db, row.id))?.state).toBe('pending');
    const since = Date.now();
    await site.deliver();
    const after = (await purchaseById(site.db, row.id))!;
    expect(after.state).toBe('paid');
    expect(after.paymentIntentId).toMatch(/^pi_/);
    // A tip grants nothing: the post stays closed, the reader is no buyer, no audience change.
    state.viewer = { kind: 'member', paid: false };
    const read = (await readPost(POST))!;
    expect(read.full).toBe(false);
    expect(read.item.body).not.toContain(SECRET);
    expect(await hasPaidPurchase(site.db, who.id)).toBe(false);
    expect(audienceChangedSince(who.id, since)).toBe(false);
    // The status page thanks the reader and leads back to the post; another reader sees nothing.
    const page = await status(who, row.id);
    expect(page).toContain('チップを送りました。ありがとうございます。');
    expect(page).toContain(`href="/posts/${POST}"`);
    expect(page).toContain('ありがとう');
    await expect(status(await reader(), row.id)).rejects.toThrow();
    // Audited, and a receipt: the provider's paid invoice.
    const [audit] = await site.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'billing.purchase.paid'), eq(auditEvents.target, who.id)));
    expect(audit?.detail).toMatchObject({ purchase: row.id, kind: 'tip', amount: 1000 });
    const receipts = await site.db
      .select({ status: billingInvoices.status, total: billingInvoices.total })
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, who.id));
    expect(receipts).toEqual([{ status: 'paid', total: 1000 }]);
  });

  it('applies nothing from a session whose amount is not the row’s (tampering)', async () => {
    const who = await reader();
    const { url, row } = await started(who, { amount: '500' });
    // A ¥100 session naming the ¥500 row, paid: not applied.
    const forged = await site.stripe.checkout.sessions.create({
      mode: 'payment',
      customer: row.customerId,
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'jpy', unit_amount: 100, product_data: { name: 'x' } },
        },
      ],
      metadata: { purchase: row.id },
      success_url: 'http://localhost:3000/',
    });
    expect((await site.pay(forged.url!)).status).toBe(303);
    await site.deliver();
    expect((await purchaseById(site.db, row.id))?.state).toBe('pending');
    // The genuine session, the row's amount changed since: the amounts differ, nothing applied.
    await site.db.update(purchases).set({ amount: 5000 }).where(eq(purchases.id, row.id));
    expect((await site.pay(url)).status).toBe(303);
    await site.deliver();
    expect((await purchaseById(site.db, row.id))?.state).toBe('pending');
  });

  it('marks a refunded tip refunded', async () => {
    const who = await reader();
    const { url, row } = await started(who, { amount: '3000' });
    await site.pay(url);
    await site.deliver();
    const paid = (await purchaseById(site.db, row.id))!;
    expect(paid.state).toBe('paid');
    await site.stripe.refunds.create({ payment_intent: paid.paymentIntentId! });
    await site.deliver();
    expect((await purchaseById(site.db, row.id))?.state).toBe('refunded');
    const audits = await site.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.target, who.id));
    expect(audits.map((a) => a.action)).toContain('billing.purchase.refunded');
  });

  it('expires a konbini tip left unpaid', async () => {
    const who = await reader();
    const { url, row } = await started(who, { amount: '500', method: 'konbini' });
    const voucher = await handleBillingSandbox(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(url).origin,
        },
        body: new URLSearchParams({ method: 'konbini' }),
      }),
      site.db,
    );
    expect(voucher.status).toBe(303);
    await site.deliver();
    const waiting = (await purchaseById(site.db, row.id))!;
    expect(waiting.state).toBe('pending');
    expect(waiting.voucherUrl).toBeTruthy();
    const [mail] = await site.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, who.email), eq(mailOutbox.kind, 'billing-konbini-voucher')));
    expect(mail?.text).toContain('記事「チップの記事」へのチップ（¥500、税込）');
    expect(mail?.text).toContain('チップを編集部にお届けします');
    const later = Math.floor(Date.now() / 1000) + 5 * 86_400;
    const customer = await site.stripe.customers.retrieve(waiting.customerId);
    const clock = customer.deleted ? null : customer.test_clock;
    await site.stripe.testHelpers.testClocks.advance(
      typeof clock === 'string' ? clock : clock!.id,
      { frozen_time: later },
    );
    await deliverPendingEvents(site.db, {
      now: later,
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), site.db),
    });
    expect((await purchaseById(site.db, row.id))?.state).toBe('expired');
  });

  it('shows staff the paid tips per post with totals, a deleted reader as anonymous', async () => {
    const paidTip = async (who: AppUser, amount: string, message?: string) => {
      const { url, row } = await started(who, {
        post: REPORTED,
        amount,
        ...(message ? { message } : {}),
      });
      await site.pay(url);
      return row;
    };
    const fan = await reader();
    const leaver = await reader();
    await paidTip(fan, '1000', '次の連載も楽しみです');
    await paidTip(leaver, '300');
    const refunded = await paidTip(fan, '5000');
    await started(fan, { post: REPORTED, amount: '700' }); // never paid
    await site.deliver();
    const intent = (await purchaseById(site.db, refunded.id))!.paymentIntentId!;
    await site.stripe.refunds.create({ payment_intent: intent });
    await site.deliver();
    await site.db.delete(user).where(eq(user.id, leaver.id));

    const { tips, totals } = await listPaidTips(site.db, { contentId: REPORTED });
    expect(totals).toEqual([{ contentId: REPORTED, title: '集計の記事', count: 2, amount: 1300 }]);
    expect(tips.map((t) => [t.amount, t.payerName, t.message, t.method])).toEqual([
      [300, null, null, 'card'],
      [1000, fan.name, '次の連載も楽しみです', 'card'],
    ]);
    const all = await listPaidTips(site.db);
    expect(all.totals.map((t) => t.contentId)).toContain(POST);

    // The staff page: editors and admins; anyone else gets the 404.
    const page = async (who: AppUser) => {
      state.user = who;
      return renderToStaticMarkup(
        await AdminTipsPage({ searchParams: Promise.resolve({ post: REPORTED }) }),
      );
    };
    const html = await page({ ...(await reader()), role: 'editor' });
    expect(html).toContain('匿名の読者');
    expect(html).toContain('次の連載も楽しみです');
    expect(html).toContain('¥1,300');
    expect(html).not.toContain('¥5,000');
    expect(html).not.toContain(fan.email);
    await expect(page(await reader())).rejects.toThrow();
  });
});
