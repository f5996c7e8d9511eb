import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { AppUser } from '@/server/features/identity';
import type { PageTestState } from '@test-support/site-content-mock';
import { useBillingSite } from '@test-support/billing-site';
import { createSiteContent } from '@/server/features/content/site-content';
import { audienceChangedSince } from '@/server/features/audience';
import { openRenderRecord } from '@/server/features/audience/render-record';
import { inRequest } from '@/server/platform/http/request-context';
import { useDatabase } from '@/server/platform/db/client';
import { auditEvents, billingInvoices, mailOutbox, purchases } from '@/server/platform/db/schema';
import { grantComplimentary } from '@/server/features/profiles/subscriptions';
import { checkFields } from '@/server/features/console/field-errors';
import { createContent, updateContent } from '@/server/services/cms/writes';
import { payKonbiniPayment } from '@/server/services/billing-sandbox/cycle/konbini';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from './webhook';
import { purchaseById, purchaseOf } from '@/server/features/purchases';

/**
 * The attack tests of single articles (docs/decisions/053-one-time-payments.md), on a real
 * database and the billing sandbox through the official SDK: the price is the post's, only the
 * provider's events open the post and only for its buyer, a konbini voucher that expires opens
 * nothing, a refund closes the post at once, a bought post is never an audience's page.
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
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).builtInSiteContentFromState(
    state,
    importOriginal,
  ),
);

const { startPurchase } = await import('./purchase-checkout');
const { CheckoutRefused } = await import('./checkout');
const { readPost } = await import('@/server/features/access/read');

const PRICED = 'sold-post';
const UNPRICED = 'unsold-post';
const CHEAP = 'cheap-post';
const SECRET = 'コウニュウシャダケノヒミツ';
const body = `<p>リード。</p>${MEMBERS_DIVIDER.html}<p>${'本文。'.repeat(30)}${SECRET}</p>`;

describe('single articles', () => {
  const site = useBillingSite();
  const posts = findEndpoint('posts')!;

  beforeAll(async () => {
    useDatabase(site.database);
    state.site = createSiteContent({ db: site.db });
    const make = (id: string, extra: Record<string, unknown>, minutes: number) =>
      createContent(site.db, posts, {
        id,
        status: 'publish',
        body: {
          title: `記事 ${id}`,
          body,
          isPublicPreview: false,
          publishedAt: new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString(),
          ...extra,
        },
      });
    await make(PRICED, { price: 300 }, 0);
    await make(UNPRICED, {}, 1);
    await make(CHEAP, { price: 100 }, 2);
    // Three newer members' posts: the free plan (the 3 newest) leaves the others paid only.
    for (const n of [1, 2, 3]) await make(`newer-${n}`, {}, 10 + n);
  });
  afterAll(() => {
    state.site?.dispose();
    useDatabase(undefined);
  });

  const reader = async (): Promise<AppUser> => ({
    ...(await site.newReader('buyer')),
    role: 'member',
    emailVerified: true,
  });
  /** The post page's read of PRICED, as this reader (a free member). */
  async function readAs(who: AppUser, id = PRICED) {
    state.user = who;
    state.viewer = { kind: 'member', paid: false };
    return (await readPost(id))!;
  }
  const opens = async (who: AppUser) => (await readAs(who)).full;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => {
        if (error instanceof CheckoutRefused) return error.message;
        throw error;
      },
    );
  /** Bought by card on the hosted page, and the events delivered. */
  async function boughtByCard(who: AppUser) {
    const started = await startPurchase(site.db, who, PRICED, 'card', null);
    expect((await site.pay(started.url)).status).toBe(303);
    await site.deliver();
    return started.purchase;
  }
  const postForm = (url: string, fields: Record<string, string>) =>
    handleBillingSandbox(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(url).origin,
        },
        body: new URLSearchParams(fields),
      }),
      site.db,
    );

  it('charges the post’s price in a payment-mode session, whatever the form says', async () => {
    const buyer = await reader();
    const { url, purchase } = await startPurchase(site.db, buyer, PRICED, 'card', null);
    expect(purchase).toMatchObject({ state: 'pending', amount: 300, tax: 27, method: 'card' });
    const session = await site.stripe.checkout.sessions.retrieve(purchase.sessionId!);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 300,
      payment_method_types: ['card'],
      metadata: { purchase: purchase.id },
      payment_intent: null,
    });
    expect(url).toBe(session.url);
    // Not sold singly, or sold below konbini's minimum: refused with a reason.
    expect(await refusal(startPurchase(site.db, buyer, UNPRICED, 'card', null))).toContain(
      '単体ではご購入いただけません',
    );
    expect(await refusal(startPurchase(site.db, buyer, CHEAP, 'konbini', null))).toContain(
      'コンビニ払いは ¥120 以上',
    );
  });

  it('opens nothing on a success URL before the provider’s event, and only for the buyer', async () => {
    const buyer = await reader();
    const stranger = await reader();
    const started = await startPurchase(site.db, buyer, PRICED, 'card', null);
    expect((await site.pay(started.url)).status).toBe(303);
    // The success page reads the ledger: still waiting, the post closed.
    expect((await purchaseOf(site.db, buyer.id, started.purchase.id))?.state).toBe('pending');
    expect(await opens(buyer)).toBe(false);
    // Another reader learns nothing of it.
    expect(await purchaseOf(site.db, stranger.id, started.purchase.id)).toBeNull();
    const since = Date.now();
    await site.deliver();
    expect((await purchaseOf(site.db, buyer.id, started.purchase.id))?.state).toBe('paid');
    expect(audienceChangedSince(buyer.id, since)).toBe(true);
    const read = await readAs(buyer);
    expect(read.full && read.bought).toBe(true);
    expect(read.item.body).toContain(SECRET);
    expect(await opens(stranger)).toBe(false);
    const [audit] = await site.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'billing.purchase.paid'), eq(auditEvents.target, buyer.id)),
      );
    expect(audit?.detail).toMatchObject({ purchase: started.purchase.id, amount: 300 });
    // Its receipt: the provider's paid invoice, stored as the plans' receipts are.
    const receipts = await site.db
      .select({
        status: billingInvoices.status,
        total: billingInvoices.total,
        tax: billingInvoices.tax,
        number: billingInvoices.number,
      })
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, buyer.id));
    expect(receipts.map(({ number, ...rest }) => ({ ...rest, numbered: !!number }))).toEqual([
      { status: 'paid', total: 300, tax: 27, numbered: true },
    ]);
    // Bought once: a second purchase is refused.
    expect(await refusal(startPurchase(site.db, buyer, PRICED, 'card', null))).toContain(
      'すでに購入済み',
    );
  });

  it('applies nothing from a session whose amount, session or customer is not the row’s', async () => {
    const buyer = await reader();
    const { customerId, ...person } = await site.newCustomer('attacker');
    const attacker: AppUser = { ...person, role: 'member', emailVerified: true };
    const started = await startPurchase(site.db, buyer, PRICED, 'card', null);
    // A session of ¥1 naming the buyer's row, paid by another customer.
    const forged = await site.stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customerId,
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'jpy', unit_amount: 60, product_data: { name: 'x' } },
        },
      ],
      metadata: { purchase: started.purchase.id },
      success_url: 'http://localhost:3000/',
    });
    expect((await site.pay(forged.url!)).status).toBe(303);
    await site.deliver();
    expect((await purchaseById(site.db, started.purchase.id))?.state).toBe('pending');
    expect(await opens(buyer)).toBe(false);
    expect(await opens(attacker)).toBe(false);
    // The genuine session, its row's amount changed since: the amounts differ, nothing opens.
    await site.db
      .update(purchases)
      .set({ amount: 500 })
      .where(eq(purchases.id, started.purchase.id));
    expect((await site.pay(started.url)).status).toBe(303);
    await site.deliver();
    expect((await purchaseById(site.db, started.purchase.id))?.state).toBe('pending');
    expect(await opens(buyer)).toBe(false);
  });

  it('keeps a konbini purchase closed until paid, mails the voucher, and expires it', async () => {
    const buyer = await reader();
    const started = await startPurchase(site.db, buyer, PRICED, 'konbini', null);
    const voucherPage = await postForm(started.url, { method: 'konbini' });
    expect(voucherPage.status).toBe(303);
    await site.deliver();
    const waiting = (await purchaseById(site.db, started.purchase.id))!;
    expect(waiting).toMatchObject({ state: 'pending', method: 'konbini' });
    expect(waiting.voucherUrl).toMatch(/\/billing-sandbox\/konbini\/pi_/);
    expect(waiting.voucherExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await opens(buyer)).toBe(false);
    const mails = await site.db
      .select({ kind: mailOutbox.kind, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, buyer.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'billing-konbini-voucher' });
    expect(mails[0]!.text).toContain(waiting.voucherUrl);
    expect(mails[0]!.text).toContain('¥300');
    // A second purchase while the voucher waits is refused.
    expect(await refusal(startPurchase(site.db, buyer, PRICED, 'card', null))).toContain(
      'お支払い待ち',
    );
    // Unpaid past its deadline: expired, the post still closed.
    // Each reader's customer runs on its own test clock in the sandbox: advanced past the deadline.
    const later = Math.floor(Date.now() / 1000) + 5 * 86_400;
    const customer = await site.stripe.customers.retrieve(waiting.customerId);
    const clock = customer.deleted ? null : customer.test_clock;
    await site.stripe.testHelpers.testClocks.advance(
      typeof clock === 'string' ? clock : clock!.id,
      { frozen_time: later },
    );
    // Its events are dated at the deadline: delivered once that time has come.
    await deliverPendingEvents(site.db, {
      now: later,
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), site.db),
    });
    expect((await purchaseById(site.db, started.purchase.id))?.state).toBe('expired');
    expect(await opens(buyer)).toBe(false);

    // Bought again by konbini and paid at the store: open.
    const again = await startPurchase(site.db, buyer, PRICED, 'konbini', null);
    await postForm(again.url, { method: 'konbini' });
    await site.deliver();
    const intent = (await purchaseById(site.db, again.purchase.id))!.paymentIntentId!;
    await payKonbiniPayment(site.db, intent);
    await site.deliver();
    expect((await purchaseById(site.db, again.purchase.id))?.state).toBe('paid');
    expect(await opens(buyer)).toBe(true);
  });

  it('opens a post bought with PayPay once approved, and nothing while declined', async () => {
    const buyer = await reader();
    const started = await startPurchase(site.db, buyer, PRICED, 'paypay', null);
    const toPayPay = await postForm(started.url, { method: 'paypay' });
    expect(toPayPay.status).toBe(303);
    const approval = new URL(toPayPay.headers.get('location')!, started.url).href;
    expect(approval).toMatch(/\/billing-sandbox\/paypay\/pi_/);
    // Declined in the PayPay app: back to the checkout, nothing paid, the post closed.
    const declined = await postForm(approval, { result: 'decline' });
    expect(declined.headers.get('location')).toContain('error=paypay_declined');
    await site.deliver();
    expect((await purchaseById(site.db, started.purchase.id))?.state).toBe('pending');
    expect(await opens(buyer)).toBe(false);
    // Tried again on the same checkout and approved: paid, and open for the buyer.
    const again = await postForm(started.url, { method: 'paypay' });
    const approved = await postForm(new URL(again.headers.get('location')!, started.url).href, {
      result: 'approve',
    });
    expect(approved.status).toBe(303);
    await site.deliver();
    expect(await purchaseById(site.db, started.purchase.id)).toMatchObject({
      state: 'paid',
      method: 'paypay',
    });
    expect(await opens(buyer)).toBe(true);
  });

  it('closes a bought post at once after a full refund', async () => {
    const buyer = await reader();
    const bought = await boughtByCard(buyer);
    expect(await opens(buyer)).toBe(true);
    const paid = (await purchaseById(site.db, bought.id))!;
    const since = Date.now();
    await site.stripe.refunds.create({ payment_intent: paid.paymentIntentId! });
    await site.deliver();
    expect((await purchaseById(site.db, bought.id))?.state).toBe('refunded');
    expect(audienceChangedSince(buyer.id, since)).toBe(true);
    expect(await opens(buyer)).toBe(false);
    const audits = await site.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.target, buyer.id));
    expect(audits.map((a) => a.action)).toContain('billing.purchase.refunded');
  });

  it('never lets a bought post’s full text be kept as an audience’s page', async () => {
    const buyer = await reader();
    await boughtByCard(buyer);
    const request = { requestId: 'buyer-render' };
    const record = openRenderRecord(request);
    const read = await inRequest(request, () => readAs(buyer));
    expect(read.item.body).toContain(SECRET);
    expect(record.personal).toBe(true);
    // A free member's render of the same post: the free audience's page, with the paywall.
    const free = await reader();
    const freeRequest = { requestId: 'free-render' };
    const freeRecord = openRenderRecord(freeRequest);
    const closed = await inRequest(freeRequest, () => readAs(free));
    expect(closed.full).toBe(false);
    expect(closed.item.body).not.toContain(SECRET);
    expect(!closed.full && closed.cta.price).toBe(300);
    expect(freeRecord).toMatchObject({ personal: false });
  });

  it('refuses a paid member whose plan opens the post, and two purchases at once', async () => {
    const member = await reader();
    await grantComplimentary(site.db, { userId: member.id, planName: '月額', status: 'active' });
    expect(await refusal(startPurchase(site.db, member, PRICED, 'card', null))).toContain(
      'ご利用中のプラン',
    );
    const racer = await reader();
    const results = await Promise.allSettled([
      startPurchase(site.db, racer, PRICED, 'card', null),
      startPurchase(site.db, racer, PRICED, 'card', null),
    ]);
    const live = await site.db
      .select({ state: purchases.state })
      .from(purchases)
      .where(and(eq(purchases.userId, racer.id), eq(purchases.state, 'pending')));
    expect(live).toHaveLength(1);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('takes a price only on a members’ post, in whole yen from ¥100 to ¥50,000', async () => {
    const open = (id: string, extra: Record<string, unknown>) =>
      createContent(site.db, posts, {
        id,
        status: 'publish',
        body: { title: id, body: '<p>x</p>', isPublicPreview: true, ...extra },
      });
    await expect(open('public-priced', { price: 300 })).rejects.toThrow(/price/);
    await expect(
      updateContent(site.db, posts, PRICED, { isPublicPreview: true }, { draft: false }),
    ).rejects.toThrow(/price/);
    for (const price of [99, 50_001, 150.5]) {
      await expect(
        updateContent(site.db, posts, UNPRICED, { price }, { draft: false }),
      ).rejects.toThrow(/price/);
    }
    const check = checkFields(posts, { title: 't', isPublicPreview: true, price: 300 });
    expect(check.ok ? null : check.fieldErrors.price).toContain('無料公開の記事には');
  });
});
