import { eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { startCheckout } from '@/server/features/billing/checkout';
import { subscriptions, user, userPrivateProfiles } from '@/server/platform/db/schema';
import { attachCard, switchToFailingCard } from '@test-support/billing-sandbox';
import { useBillingSite } from '@test-support/billing-site';
import { DAY, utc } from '@test-support/unix-time';
import { recordSignUpSource } from '@/server/features/attribution/attribution';
import { loadBusinessReport } from './business-report';
import { contentForPath } from '@/server/features/attribution/content-path';
import { insertPageView } from './page-views';

// Checkouts are paid from the first day; the trials below are the provider's own.
process.env.BILLING_TRIAL_DAYS = '0';

/**
 * "Numbers agree with the provider": a known history of subscriptions fed through the sandbox
 * by the official SDK (checkouts on the hosted page, a trial, a cancellation at the period end,
 * a plan change, a failed renewal that the provider ends), every event delivered to the site's
 * webhook, then every figure of the report checked against the values worked out by hand below.
 * Each reader's customer has its own test clock, so months pass without waiting.
 */

const SEC = 1000;
/** The report's time: 2027-04-28 09:00 in Japan. */
const NOW = utc(2027, 4, 28) * SEC;

describe('the business report agrees with the provider', () => {
  const site = useBillingSite();

  /** A confirmed reader who signed up at `signedUp` (from `source`), with a clocked customer. */
  async function reader(signedUp: number, source: string | null) {
    const made = await site.newReader('business');
    await site.db
      .update(user)
      .set({ emailVerified: true, createdAt: new Date(signedUp * SEC) })
      .where(eq(user.id, made.id));
    const ref = source ? contentForPath(source) : null;
    if (ref) await recordSignUpSource(site.db, made.id, ref);
    return made;
  }

  /** The reader's customer at the provider, on a clock frozen at `start`. */
  async function clocked(owner: { id: string; email: string }, start: number) {
    const clock = await site.stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await site.stripe.customers.create({
      email: owner.email,
      test_clock: clock.id,
    });
    await site.db
      .update(userPrivateProfiles)
      .set({ stripeId: customer.id })
      .where(eq(userPrivateProfiles.userId, owner.id));
    const advance = async (to: number) => {
      await site.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
      await site.deliver();
    };
    return { customer, advance };
  }

  /**
   * A checkout of `plan` started from `source` and paid on the hosted page at `at`, with an
   * offer's promotion code if one is given.
   */
  async function checkout(
    owner: { id: string; email: string; name: string },
    at: number,
    plan: 'monthly' | 'yearly',
    source: string | null,
    offer?: string,
  ) {
    const customer = await clocked(owner, at);
    const started = await startCheckout(
      site.db,
      owner,
      plan,
      null,
      '/',
      source ? contentForPath(source) : null,
      offer,
    );
    const paid = await site.pay(started.url);
    expect(paid.status).toBe(303);
    await site.deliver();
    const [subscription] = (
      await site.stripe.subscriptions.list({ customer: customer.customer.id })
    ).data;
    return { ...customer, subscription: subscription! };
  }

  /** A 14-day trial made by the provider's API, with a card that pays when it ends. */
  async function trial(owner: { id: string; email: string }, at: number, source: string) {
    const customer = await clocked(owner, at);
    await attachCard(site.stripe, customer.customer.id);
    const subscription = await site.stripe.subscriptions.create({
      customer: customer.customer.id,
      items: [{ price: site.plan('monthly').priceId }],
      trial_period_days: 14,
      metadata: { userId: owner.id, plan: 'monthly', source },
    });
    await site.deliver();
    return { ...customer, subscription };
  }

  const itemOf = (subscription: Stripe.Subscription) => subscription.items.data[0]!;

  it('checks every figure against the history worked out by hand', async () => {
    // R1: signed up 5 Jan from p1, monthly from 10 Jan (¥1,100), paying since.
    const r1 = await reader(utc(2027, 1, 5), '/posts/p1');
    await checkout(r1, utc(2027, 1, 10), 'monthly', '/posts/p1');

    // R2: signed up 8 Jan from p2, yearly from 12 Jan (¥11,000 a year), paying since.
    const r2 = await reader(utc(2027, 1, 8), '/posts/p2');
    await checkout(r2, utc(2027, 1, 12), 'yearly', '/posts/p2');

    // R3: signed up 3 Feb with nothing kept, monthly from 5 Feb started from p1, cancelled
    // on 20 Feb at the period end: paid February, ended 5 Mar (churned in March).
    const r3 = await reader(utc(2027, 2, 3), null);
    const r3plan = await checkout(r3, utc(2027, 2, 5), 'monthly', '/posts/p1');
    await r3plan.advance(utc(2027, 2, 20));
    await site.stripe.subscriptions.update(r3plan.subscription.id, { cancel_at_period_end: true });
    await site.deliver();
    await r3plan.advance(utc(2027, 3, 6));

    // R4: signed up 10 Feb from p1, a 14-day trial from 12 Feb (from p1), paid when it ended
    // on 26 Feb, then changed to the yearly plan on 15 Mar: ¥11,000 a year now.
    const r4 = await reader(utc(2027, 2, 10), '/posts/p1');
    const r4plan = await trial(r4, utc(2027, 2, 12), '/posts/p1');
    await r4plan.advance(utc(2027, 3, 15));
    await site.stripe.subscriptions.update(r4plan.subscription.id, {
      items: [{ id: itemOf(r4plan.subscription).id, price: site.plan('yearly').priceId }],
    });
    await site.deliver();

    // R6: signed up 1 Mar from p2, monthly from 3 Mar (from p2); the card fails from then on:
    // the renewal on 3 Apr fails, the retries (6, 8, 10 Apr) too, and the provider ends the
    // plan on 10 Apr (churned in April).
    const r6 = await reader(utc(2027, 3, 1), '/posts/p2');
    const r6plan = await checkout(r6, utc(2027, 3, 3), 'monthly', '/posts/p2');
    await switchToFailingCard(site.stripe, r6plan.customer.id);
    await r6plan.advance(utc(2027, 4, 5));
    expect((await site.stripe.subscriptions.retrieve(r6plan.subscription.id)).status).toBe(
      'past_due',
    );
    await r6plan.advance(utc(2027, 4, 11));

    // R5: signed up 20 Apr from p3, on a trial from 25 Apr (from p3) that runs past the report.
    const r5 = await reader(utc(2027, 4, 20), '/posts/p3');
    await trial(r5, utc(2027, 4, 25), '/posts/p3');

    // R7: signed up 2 Apr, no plan. An unconfirmed account and an editor are not sign-ups.
    await reader(utc(2027, 4, 2), null);
    const unconfirmed = await site.newReader('business');
    await site.db
      .update(user)
      .set({ createdAt: new Date(utc(2027, 4, 3) * SEC) })
      .where(eq(user.id, unconfirmed.id));
    const editor = await reader(utc(2027, 4, 4), null);
    await site.db.update(user).set({ role: 'editor' }).where(eq(user.id, editor.id));

    // The provider's own state, as the history says.
    const statuses = await Promise.all(
      [r3plan, r4plan, r6plan].map(async (made) => {
        const found = await site.stripe.subscriptions.retrieve(made.subscription.id);
        return [found.status, itemOf(found).price.id, found.ended_at];
      }),
    );
    expect(statuses).toEqual([
      ['canceled', site.plan('monthly').priceId, utc(2027, 3, 5)],
      ['active', site.plan('yearly').priceId, null],
      ['canceled', site.plan('monthly').priceId, utc(2027, 3, 3) + 38 * DAY],
    ]);

    // Page views of the window: p1 three (one by a member, two with the paywall), p2 one.
    const view = (path: string, audience: string, paywall: boolean) => {
      const ref = contentForPath(path)!;
      return insertPageView(site.db, {
        occurredAt: new Date(NOW - DAY * SEC),
        day: '2027-04-27',
        path,
        endpoint: ref.endpoint,
        contentId: ref.contentId,
        referrer: null,
        visitorId: '11111111-1111-4111-8111-111111111111',
        audience,
        paywall,
      });
    };
    await view('/posts/p1', 'anonymous', true);
    await view('/posts/p1', 'member', true);
    await view('/posts/p1', 'paid', false);
    await view('/posts/p2', 'anonymous', false);

    const titles = (_endpoint: string, ids: string[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, `記事 ${id}`])));
    const report = await loadBusinessReport(site.db, { now: NOW, titles });

    expect(report.from).toBe('2026-05-01');
    expect(report.to).toBe('2027-04-28');
    expect(report.headline).toEqual({
      // Paying now: R1 ¥1,100 a month, R2 and R4 ¥11,000 a year (¥916.67 a month each).
      mrr: Math.round(1100 + 11000 / 12 + 11000 / 12),
      payingMembers: 3,
      // R5.
      trials: 1,
      // Seven confirmed readers signed up in the window; R1, R2, R3, R4 and R6 have paid.
      conversion: { signUps: 7, converted: 5, rate: 5 / 7 },
      // No one-time payments in this history (the CSV route's test has some).
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    expect(report.headline.mrr).toBe(2933);

    const months = Object.fromEntries(report.months.map((m) => [m.month, m]));
    expect(report.months.map((m) => m.month)).toEqual([
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
      '2027-03',
      '2027-04',
    ]);
    for (const month of report.months.slice(0, 8)) {
      expect(month).toMatchObject({
        newPaying: 0,
        churned: 0,
        payingAtEnd: 0,
        signUps: 0,
        converted: 0,
      });
    }
    // January: R1 and R2 start paying.
    expect(months['2027-01']).toEqual({
      month: '2027-01',
      newPaying: 2,
      churned: 0,
      payingAtEnd: 2,
      signUps: 2,
      converted: 2,
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    // February: R3 pays on the 5th, R4 when the trial ends on the 26th.
    expect(months['2027-02']).toEqual({
      month: '2027-02',
      newPaying: 2,
      churned: 0,
      payingAtEnd: 4,
      signUps: 2,
      converted: 2,
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    // March: R6 starts, R3 ends.
    expect(months['2027-03']).toEqual({
      month: '2027-03',
      newPaying: 1,
      churned: 1,
      payingAtEnd: 4,
      signUps: 1,
      converted: 1,
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    // April (to the 28th): R6 ended by the provider after the failed renewal; R7 and R5 signed up.
    expect(months['2027-04']).toEqual({
      month: '2027-04',
      newPaying: 0,
      churned: 1,
      payingAtEnd: 3,
      signUps: 2,
      converted: 0,
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });

    expect(report.posts).toEqual([
      {
        endpoint: 'posts',
        contentId: 'p1',
        title: '記事 p1',
        href: '/posts/p1',
        views: 3,
        memberViews: 2,
        paywallViews: 2,
        // R1 and R4 signed up from it; R1, R3 and R4 subscribed from it.
        signUps: 2,
        subscriptions: 3,
        purchases: 0,
        tips: 0,
        oneTimeRevenue: 0,
        meteredReads: 0,
        meteredSubscriptions: 0,
      },
      {
        endpoint: 'posts',
        contentId: 'p2',
        title: '記事 p2',
        href: '/posts/p2',
        views: 1,
        memberViews: 0,
        paywallViews: 0,
        signUps: 2,
        subscriptions: 2,
        purchases: 0,
        tips: 0,
        oneTimeRevenue: 0,
        meteredReads: 0,
        meteredSubscriptions: 0,
      },
      {
        endpoint: 'posts',
        contentId: 'p3',
        title: '記事 p3',
        href: '/posts/p3',
        views: 0,
        memberViews: 0,
        paywallViews: 0,
        signUps: 1,
        subscriptions: 1,
        purchases: 0,
        tips: 0,
        oneTimeRevenue: 0,
        meteredReads: 0,
        meteredSubscriptions: 0,
      },
    ]);

    // Sorted by another column, as the table's links ask.
    const byViews = await loadBusinessReport(site.db, { now: NOW, titles, sort: 'views' });
    expect(byViews.posts.map((p) => p.contentId)).toEqual(['p1', 'p2', 'p3']);
  });

  let offers = 0;
  /** An offer as the console makes it: a coupon and its promotion code. */
  async function offer(coupon: Stripe.CouponCreateParams) {
    const made = await site.stripe.coupons.create({ name: 'オファー', ...coupon });
    const code = await site.stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: made.id },
      code: `MRR${++offers}`,
    });
    return code.code;
  }

  it('counts MRR after the discounts that still recur', async () => {
    const before = (await loadBusinessReport(site.db, { now: NOW })).headline;
    const discounted = async (
      at: number,
      plan: 'monthly' | 'yearly',
      coupon: Stripe.CouponCreateParams,
    ) => {
      const owner = await reader(at, null);
      return (await checkout(owner, at, plan, null, await offer(coupon))).subscription;
    };
    // Half off the first month (10 Apr): ¥550 paid once, ¥1,100 a month recurs.
    await discounted(utc(2027, 4, 10), 'monthly', { percent_off: 50, duration: 'once' });
    // ¥300 off for one month from 20 Mar: ended on 20 Apr, before the report.
    const ended = await discounted(utc(2027, 3, 20), 'monthly', {
      amount_off: 300,
      currency: 'jpy',
      duration: 'repeating',
      duration_in_months: 1,
    });
    // 20 % off for good from 1 Apr: ¥880 a month.
    await discounted(utc(2027, 4, 1), 'monthly', { percent_off: 20, duration: 'forever' });
    // Yearly at 10 % off for 12 months from 1 Mar: ¥9,900 a year while it lasts.
    const yearly = await discounted(utc(2027, 3, 1), 'yearly', {
      percent_off: 10,
      duration: 'repeating',
      duration_in_months: 12,
    });
    // The webhook's sync kept each plan's discount with its coupon's terms.
    const stored = await site.db
      .select({ id: subscriptions.id, discounts: subscriptions.discounts })
      .from(subscriptions)
      .where(inArray(subscriptions.id, [ended.id, yearly.id]));
    expect(Object.fromEntries(stored.map((row) => [row.id, row.discounts]))).toEqual({
      [ended.id]: [
        {
          coupon: expect.any(String) as unknown,
          percentOff: null,
          amountOff: 300,
          duration: 'repeating',
          durationInMonths: 1,
          start: new Date(utc(2027, 3, 20) * SEC).toISOString(),
          end: new Date(utc(2027, 4, 20) * SEC).toISOString(),
        },
      ],
      [yearly.id]: [
        {
          coupon: expect.any(String) as unknown,
          percentOff: 10,
          amountOff: null,
          duration: 'repeating',
          durationInMonths: 12,
          start: new Date(utc(2027, 3, 1) * SEC).toISOString(),
          end: new Date(utc(2028, 3, 1) * SEC).toISOString(),
        },
      ],
    });

    const after = (await loadBusinessReport(site.db, { now: NOW })).headline;
    expect(after.payingMembers - before.payingMembers).toBe(4);
    // 1,100 (once: not recurring) + 1,100 (ended) + 880 + 9,900 / 12: whole yen, so the
    // rounding of the total moves by exactly that much.
    expect(after.mrr - before.mrr).toBe(1100 + 1100 + 880 + 825);
  });
});
