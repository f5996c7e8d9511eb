import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUser } from '@/server/features/identity';
import { useBillingSite } from '@test-support/billing-site';
import { useDatabase } from '@/server/platform/db/client';
import {
  auditEvents,
  billingInvoices,
  mailOutbox,
  planGifts,
  subscriptions,
} from '@/server/platform/db/schema';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { deliverPendingEvents } from '@/server/services/billing-sandbox/webhooks';
import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { CheckoutRefused, startCheckout } from '@/server/features/billing/checkout';
import { billingSummaryFor } from '@/server/features/billing/reader-billing';
import { startGiftPurchase } from '@/server/features/billing/gift-checkout';
import { redeemGift } from '@/server/features/billing/gift-redeem';
import { viewerForUser } from '@/server/features/access';
import { purchaseById } from '@/server/features/purchases';
import { type GiftMonths, addDaysJa, addMonths, todayJa } from '@/lib/billing/gift-plans';
import { deliverDueGifts, giftByToken, listGiftsSentBy, remindEndingGifts } from './index';

/**
 * The attack tests of gift subscriptions (docs/decisions/054-gift-subscriptions.md), on a real
 * database and the billing sandbox through the official SDK: the price is the catalogue's, only
 * a paid gift is delivered, its link is redeemed once and only by an account with the
 * recipient's address, only a hash of the link is kept, a refund kills the link or ends what it
 * granted, and the period never renews.
 */

const DAY = 86_400_000;

describe('gift subscriptions', () => {
  const site = useBillingSite();
  beforeAll(() => useDatabase(site.database));
  afterAll(() => useDatabase(undefined));

  const member = async (prefix: string): Promise<AppUser> => ({
    ...(await site.newReader(prefix)),
    role: 'member',
    emailVerified: true,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => {
        if (error instanceof CheckoutRefused) return error.message;
        throw error;
      },
    );
  const order = (recipient: string, months: GiftMonths = 3, deliver = todayJa()) => ({
    plan: months === 12 ? ('yearly' as const) : ('monthly' as const),
    months,
    recipient,
    message: 'お誕生日おめでとう！',
    deliver,
  });
  const mailsTo = (to: string) =>
    site.db
      .select({ kind: mailOutbox.kind, text: mailOutbox.textBody, subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, to));
  const tokenIn = (text: string | null) =>
    /\/gift\/redeem\/([A-Za-z0-9_-]{43})/.exec(text ?? '')?.[1];
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
  /** A gift bought by card on the hosted page, its events delivered, due gifts sent. */
  async function giftByCard(giver: AppUser, recipient: string, months: GiftMonths = 3) {
    const started = await startGiftPurchase(site.db, giver, order(recipient, months), 'card', null);
    expect((await site.pay(started.url)).status).toBe(303);
    await site.deliver();
    await deliverDueGifts(site.db);
    return started.purchase;
  }
  async function linkOf(recipient: string) {
    const mails = (await mailsTo(recipient)).filter((mail) => mail.kind === 'gift-plan-delivery');
    return mails.map((mail) => tokenIn(mail.text)).at(-1);
  }

  it('charges the catalogue’s price for the months, whatever the form says', async () => {
    const giver = await member('giver');
    const monthly = site.plan('monthly').amount;
    const three = await startGiftPurchase(site.db, giver, order('a@example.jp', 3), 'card', null);
    expect(three.purchase).toMatchObject({
      kind: 'gift-plan',
      state: 'pending',
      amount: monthly * 3,
      message: 'お誕生日おめでとう！',
    });
    const session = await site.stripe.checkout.sessions.retrieve(three.purchase.sessionId!);
    expect(session).toMatchObject({ mode: 'payment', amount_total: monthly * 3 });
    const year = await startGiftPurchase(
      site.db,
      giver,
      order('a@example.jp', 12),
      'konbini',
      null,
    );
    expect(year.purchase.amount).toBe(site.plan('yearly').amount);
    // A plan that does not go with the months is refused: the price is never the form's.
    expect(
      await refusal(
        startGiftPurchase(
          site.db,
          giver,
          { ...order('a@example.jp', 12), plan: 'monthly' },
          'card',
          null,
        ),
      ),
    ).toContain('プラン');
  });

  it('delivers a paid gift with a link whose token only a hash of is kept; the giver gets a receipt', async () => {
    const giver = await member('giver');
    const recipient = await member('recipient');
    const purchase = await giftByCard(giver, recipient.email);
    expect((await purchaseById(site.db, purchase.id))?.state).toBe('paid');
    const mails = await mailsTo(recipient.email);
    expect(mails.map((mail) => mail.kind)).toEqual(['gift-plan-delivery']);
    expect(mails[0]!.text).toContain('お誕生日おめでとう！');
    expect(mails[0]!.text).toContain(giver.name);
    const token = tokenIn(mails[0]!.text)!;
    expect(token).toBeTruthy();
    const [row] = await site.db
      .select({ tokenHash: planGifts.tokenHash })
      .from(planGifts)
      .where(eq(planGifts.purchaseId, purchase.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    // A second round sends nothing more.
    await deliverDueGifts(site.db);
    expect(await mailsTo(recipient.email)).toHaveLength(1);
    const receipts = await site.db
      .select({ total: billingInvoices.total, status: billingInvoices.status })
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, giver.id));
    expect(receipts).toEqual([{ total: purchase.amount, status: 'paid' }]);
    const [sent] = await listGiftsSentBy(site.db, giver.id);
    expect(sent).toMatchObject({ recipientEmail: recipient.email, months: 3, label: '送信済み' });
  });

  it('redeems once, only for a signed-in account with the recipient’s address; the plan never renews', async () => {
    const giver = await member('giver');
    const recipient = await member('recipient');
    const stranger = await member('stranger');
    await giftByCard(giver, recipient.email);
    const token = (await linkOf(recipient.email))!;
    expect((await viewerForUser(recipient)).kind === 'member').toBe(true);
    expect(await viewerForUser(recipient)).toEqual({ kind: 'member', paid: false });
    // Another address: refused, nothing granted.
    const other = await redeemGift(site.db, stranger, token, null);
    expect('refused' in other && other.refused).toContain('宛先');
    expect(await viewerForUser(stranger)).toEqual({ kind: 'member', paid: false });
    // An account with the address but not yet confirmed: refused.
    const unverified = await redeemGift(
      site.db,
      { ...recipient, emailVerified: false },
      token,
      null,
    );
    expect('refused' in unverified).toBe(true);
    const before = Date.now();
    const redeemed = await redeemGift(site.db, recipient, token, null);
    expect('refused' in redeemed).toBe(false);
    expect(await viewerForUser(recipient)).toEqual({ kind: 'member', paid: true });
    const end = addMonths(new Date(before), 3).getTime();
    const summary = await billingSummaryFor(site.db, recipient.id);
    expect(summary.current).toMatchObject({ provider: 'gift', cancelAtPeriodEnd: true });
    expect(Math.abs(summary.current!.currentPeriodEnd!.getTime() - end)).toBeLessThan(60_000);
    // Twice: refused, and still one grant.
    const again = await redeemGift(site.db, recipient, token, null);
    expect('refused' in again && again.refused).toContain('受け取り済み');
    const grants = await site.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.userId, recipient.id));
    expect(grants).toHaveLength(1);
    const [audit] = await site.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.target, recipient.id), eq(auditEvents.action, 'billing.gift.redeem')),
      );
    expect(audit).toBeTruthy();
    const [sent] = await listGiftsSentBy(site.db, giver.id);
    expect(sent?.label).toBe('受け取り済み');

    // A week before the end: one reminder with the plans page; after the end, nothing renews.
    await remindEndingGifts(site.db, new Date(end - 8 * DAY));
    expect(
      (await mailsTo(recipient.email)).filter((m) => m.kind === 'gift-plan-ending'),
    ).toHaveLength(0);
    await remindEndingGifts(site.db, new Date(end - 6 * DAY));
    await remindEndingGifts(site.db, new Date(end - 5 * DAY));
    const reminders = (await mailsTo(recipient.email)).filter((m) => m.kind === 'gift-plan-ending');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain('/service-plans');
    await site.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, recipient.id));
    expect(await viewerForUser(recipient)).toEqual({ kind: 'member', paid: false });
  });

  it('finds nothing for a forged or guessed token, nor for the stored hash', async () => {
    const giver = await member('giver');
    const recipient = await member('recipient');
    const purchase = await giftByCard(giver, recipient.email);
    const [row] = await site.db
      .select({ tokenHash: planGifts.tokenHash })
      .from(planGifts)
      .where(eq(planGifts.purchaseId, purchase.id));
    for (const guess of ['A'.repeat(43), row!.tokenHash!, '../../etc', '']) {
      expect(await giftByToken(site.db, guess)).toBeNull();
      const answer = await redeemGift(site.db, recipient, guess, null);
      expect('refused' in answer).toBe(true);
    }
    expect(await viewerForUser(recipient)).toEqual({ kind: 'member', paid: false });
  });

  it('sends a gift for a later day on that day, not before', async () => {
    const giver = await member('giver');
    const recipient = await member('recipient');
    const later = addDaysJa(todayJa(), 10);
    const started = await startGiftPurchase(
      site.db,
      giver,
      order(recipient.email, 1, later),
      'card',
      null,
    );
    await site.pay(started.url);
    await site.deliver();
    await deliverDueGifts(site.db);
    expect(await mailsTo(recipient.email)).toHaveLength(0);
    const [sent] = await listGiftsSentBy(site.db, giver.id);
    expect(sent?.label).toMatch(/^送信予定/);
    await deliverDueGifts(site.db, new Date(Date.parse(`${later}T00:00:00Z`) + DAY / 2));
    expect(await mailsTo(recipient.email)).toHaveLength(1);
  });

  it('mails no link for a konbini gift that expires unpaid', async () => {
    const giver = await member('giver');
    const recipient = 'konbini-recipient@example.jp';
    const started = await startGiftPurchase(site.db, giver, order(recipient), 'konbini', null);
    expect((await postForm(started.url, { method: 'konbini' })).status).toBe(303);
    await site.deliver();
    await deliverDueGifts(site.db);
    expect(await mailsTo(recipient)).toHaveLength(0);
    const [waiting] = await listGiftsSentBy(site.db, giver.id);
    expect(waiting?.label).toBe('支払い待ち');
    const [voucher] = await mailsTo(giver.email);
    expect(voucher).toMatchObject({ kind: 'billing-konbini-voucher' });
    expect(voucher!.text).toContain('ギフトをお届けします');
    const row = (await purchaseById(site.db, started.purchase.id))!;
    const later = Math.floor(Date.now() / 1000) + 5 * 86_400;
    const customer = await site.stripe.customers.retrieve(row.customerId);
    const clock = customer.deleted ? null : customer.test_clock;
    await site.stripe.testHelpers.testClocks.advance(
      typeof clock === 'string' ? clock : clock!.id,
      { frozen_time: later },
    );
    await deliverPendingEvents(site.db, {
      now: later,
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), site.db),
    });
    expect((await purchaseById(site.db, started.purchase.id))?.state).toBe('expired');
    await deliverDueGifts(site.db);
    expect(await mailsTo(recipient)).toHaveLength(0);
  });

  it('kills the link of a gift refunded before it is redeemed, and ends a redeemed one', async () => {
    const giver = await member('giver');
    const first = await member('recipient');
    const unredeemed = await giftByCard(giver, first.email);
    const token = (await linkOf(first.email))!;
    await site.stripe.refunds.create({
      payment_intent: (await purchaseById(site.db, unredeemed.id))!.paymentIntentId!,
    });
    await site.deliver();
    const dead = await redeemGift(site.db, first, token, null);
    expect('refused' in dead && dead.refused).toContain('返金');
    expect(await viewerForUser(first)).toEqual({ kind: 'member', paid: false });

    const second = await member('recipient');
    const redeemedGift = await giftByCard(giver, second.email);
    expect(
      'refused' in (await redeemGift(site.db, second, (await linkOf(second.email))!, null)),
    ).toBe(false);
    expect(await viewerForUser(second)).toEqual({ kind: 'member', paid: true });
    await site.stripe.refunds.create({
      payment_intent: (await purchaseById(site.db, redeemedGift.id))!.paymentIntentId!,
    });
    await site.deliver();
    expect(await viewerForUser(second)).toEqual({ kind: 'member', paid: false });
  });

  it('starts the gift period after a card plan set to end, and leaves that plan as it is', async () => {
    const giver = await member('giver');
    const leaving = await member('leaving');
    const started = await startCheckout(site.db, leaving, 'monthly', null);
    await site.pay(started.url);
    await site.deliver();
    const plan = (await billingSummaryFor(site.db, leaving.id)).current!;
    await site.stripe.subscriptions.update(plan.subscriptionId, { cancel_at_period_end: true });
    await site.deliver();
    const ending = (await billingSummaryFor(site.db, leaving.id)).current!;
    expect(ending.cancelAtPeriodEnd).toBe(true);
    const before = await site.stripe.subscriptions.retrieve(plan.subscriptionId);
    await giftByCard(giver, leaving.email, 1);
    const answer = await redeemGift(site.db, leaving, (await linkOf(leaving.email))!, null);
    expect(answer).toMatchObject({ granted: { kind: 'period', months: 1 } });
    const end = 'granted' in answer ? answer.granted.end.getTime() : 0;
    expect(end).toBe(addMonths(ending.currentPeriodEnd!, 1).getTime());
    // The card plan still ends at its period's end: nothing moved at the provider.
    const after = await site.stripe.subscriptions.retrieve(plan.subscriptionId);
    expect(after.cancel_at_period_end).toBe(true);
    expect(after.items.data[0]!.current_period_end).toBe(before.items.data[0]!.current_period_end);
  });

  it('adds the months after a paying reader’s period, moving the next charge, with no charge now', async () => {
    const giver = await member('giver');
    const payer = await member('payer');
    const started = await startCheckout(site.db, payer, 'monthly', null);
    await site.pay(started.url);
    await site.deliver();
    const before = (await billingSummaryFor(site.db, payer.id)).current!;
    const subscription = await site.stripe.subscriptions.retrieve(before.subscriptionId);
    const nextCharge = subscription.trial_end ?? subscription.items.data[0]!.current_period_end;
    await giftByCard(giver, payer.email, 3);
    const answer = await redeemGift(site.db, payer, (await linkOf(payer.email))!, null);
    expect('refused' in answer).toBe(false);
    await site.deliver();
    const after = await site.stripe.subscriptions.retrieve(before.subscriptionId);
    const expected = Math.floor(addMonths(new Date(nextCharge * 1000), 3).getTime() / 1000);
    expect(after.trial_end).toBe(expected);
    expect(after.status).toBe('trialing');
    expect(after.items.data[0]!.current_period_end).toBe(expected);
    const plan = (await billingSummaryFor(site.db, payer.id)).current!;
    expect(plan.subscriptionId).toBe(before.subscriptionId);
    expect(plan.trialEnd?.getTime()).toBe(expected * 1000);
    const invoices = await site.stripe.invoices.list({ subscription: before.subscriptionId });
    expect(invoices.data.filter((invoice) => invoice.amount_paid > 0)).toHaveLength(0);
    // Three days before the gift's months end, the provider's notice: the mail says so.
    const customer = await site.stripe.customers.retrieve(after.customer as string);
    const clock = customer.deleted ? null : customer.test_clock;
    const notice = expected - 2 * 86_400;
    await site.stripe.testHelpers.testClocks.advance(
      typeof clock === 'string' ? clock : clock!.id,
      { frozen_time: notice },
    );
    await deliverPendingEvents(site.db, {
      now: notice,
      fetch: (input, init) => handleBillingWebhook(new Request(input, init), site.db),
    });
    const ending = (await mailsTo(payer.email)).filter((m) => m.kind === 'billing-trial-ending');
    expect(ending.map((mail) => mail.subject)).toEqual([
      expect.stringContaining('ギフトの期間はまもなく終了します'),
    ]);
  });
});
