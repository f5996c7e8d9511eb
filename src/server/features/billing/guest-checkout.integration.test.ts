import type Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import {
  account,
  auditEvents,
  guestCheckouts,
  mailOutbox,
  session as sessionTable,
  subscriptions,
  user,
} from '@/server/platform/db/schema';
import { type FlowDeps, signIn, signUp } from '@/server/features/account/account-flows';
import { type Auth, createAuth } from '@/server/features/identity/auth';
import type { AppUser } from '@/server/features/identity/session-user';
import { removeUnfinishedSignUp } from '@/server/features/identity/unfinished-sign-up';
import { BASE, PASSWORD, signUpForm } from '@test-support/account-flows';
import { useBillingSite } from '@test-support/billing-site';
import { startCheckout } from './checkout';
import {
  type GuestReturn,
  boundGuestSession,
  guestCheckoutView,
  returnFromGuestCheckout,
  startGuestCheckout,
} from './guest-checkout';
import { wasReversedAsDuplicate } from './one-plan';

/**
 * A visitor pays with an e-mail address only (docs/decisions/039-reader-path.md): through the
 * official SDK against the sandbox, the real database and better-auth. The account is made from
 * an address nobody uses, and only the browser that started the checkout is signed in to it; an
 * address that has an account is never signed in by paying, and its owner, signed in, claims
 * the plan once.
 */

describe('a checkout paid with an e-mail address only', () => {
  const site = useBillingSite();
  let db: Db;
  let stripe: Stripe;
  let auth: Auth;
  let deps: FlowDeps;
  beforeAll(() => {
    ({ db, stripe } = site);
    auth = createAuth(db, { secret: 'x'.repeat(32), baseURL: BASE });
    deps = { db, auth };
  });

  let n = 0;
  const address = (prefix: string) => `${prefix}-${++n}-${Date.now()}@example.jp`;
  const ctx = (headers: Headers, viewer: AppUser | null = null) => ({
    headers,
    ip: '192.0.2.10',
    viewer,
    next: '/posts/abc',
  });
  const cookieOf = (setCookies: string[]) => setCookies.map((c) => c.split(';')[0]).join('; ');

  /** The visitor's whole walk up to the provider's redirect: the form, the card form paid. */
  async function paidAsGuest(email: string) {
    const started = await startGuestCheckout(db, {
      email,
      plan: 'monthly',
      next: '/posts/abc',
      ip: '192.0.2.10',
      source: null,
    });
    expect((await site.pay(started.url)).status).toBe(303);
    const session = await stripe.checkout.sessions.retrieve(started.url.split('/').at(-1)!);
    return { started, session, bound: new Headers({ cookie: cookieOf([started.setCookie]) }) };
  }

  async function userOf(email: string) {
    const [row] = await db.select().from(user).where(eq(user.email, email));
    return row ?? null;
  }

  const viewerOf = (row: { id: string; email: string; name: string }, verified = true) =>
    ({ ...row, role: 'member', emailVerified: verified }) satisfies AppUser;

  async function plansOf(userId: string) {
    const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return rows.map((row) => row.status);
  }

  async function auditsOf(action: string, target: string) {
    return db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.target, target)));
  }

  /** A member who signed up, confirmed the address and can sign in with the password. */
  async function member(email: string) {
    expect(
      (await signUp(deps, signUpForm(email, '会員'), { headers: new Headers(), ip: null })).ok,
    );
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    const link = /https?:\/\/\S+/.exec(mail!.textBody ?? '')![0];
    expect((await auth.handler(new Request(link))).status).toBe(302);
    return viewerOf((await userOf(email))!);
  }

  it('answers the same for any address, and binds the browser to its checkout', async () => {
    const taken = await member(address('taken'));
    const fresh = address('fresh');
    const answers = await Promise.all(
      [taken.email, fresh].map((email) =>
        startGuestCheckout(db, { email, plan: 'monthly', next: '/', ip: null, source: null }),
      ),
    );
    for (const answer of answers) {
      expect(answer.url).toMatch(/\/billing-sandbox\/checkout\/cs_/);
      expect(answer.setCookie).toMatch(
        /^axis_guest_checkout=[^;]+; Path=\/; Max-Age=86400; HttpOnly/,
      );
      const sessionId = answer.url.split('/').at(-1)!;
      expect(boundGuestSession(new Headers({ cookie: answer.setCookie.split(';')[0]! }))).toBe(
        sessionId,
      );
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      // The provider makes the customer; the terms are a new account's (the trial).
      expect(session).toMatchObject({ customer: null, client_reference_id: null });
      expect(session.amount_total).toBe(0);
      expect(session.success_url).toContain('/api/billing/checkout-return?session_id=');
    }
    // An altered cookie binds nothing.
    expect(boundGuestSession(new Headers({ cookie: 'axis_guest_checkout=cs_x.1.abc' }))).toBeNull();
  });

  it('a new address: the account is made, this browser signed in, the plan applied, a link mailed', async () => {
    const email = address('new');
    const { session, bound } = await paidAsGuest(email);
    const back = await returnFromGuestCheckout(deps, session, ctx(bound));
    expect(back).toMatchObject({
      kind: 'claimed',
      outcome: { state: 'recorded', status: 'trialing', planName: 'メンバーシップ 月額プラン' },
    });
    const made = (await userOf(email))!;
    // No password, the address not confirmed: only the mailbox confirms it.
    expect(made).toMatchObject({ emailVerified: false, name: email.split('@')[0] });
    expect(await db.select().from(account).where(eq(account.userId, made.id))).toEqual([]);
    // Signed in by better-auth's own session and cookie; the binding is forgotten.
    const { setCookies } = back as Extract<GuestReturn, { kind: 'claimed' }>;
    expect(setCookies.join('\n')).toMatch(/axis_guest_checkout=; .*Max-Age=0/);
    const signedIn = await auth.api.getSession({
      headers: new Headers({ cookie: cookieOf(setCookies) }),
    });
    expect(signedIn?.user.id).toBe(made.id);
    expect(await plansOf(made.id)).toEqual(['trialing']);
    // The mail: a sign-in link that comes back through the return route to the article.
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    const paidMail = mails.find((mail) => mail.subject.includes('メールアドレスの確認'));
    expect(paidMail?.textBody).toContain('/api/account/sign-in-link?token=');
    const link = new URL(/https?:\/\/\S+/.exec(paidMail?.textBody ?? '')![0]);
    expect(link.searchParams.get('next')).toBe(
      `/api/billing/checkout-return?session_id=${session.id}&next=%2Fposts%2Fabc`,
    );
    expect(await auditsOf('sign-up', `user:${made.id}`)).toHaveLength(1);
    expect(await auditsOf('billing.guest-checkout.claimed', `user:${made.id}`)).toHaveLength(1);
    // A sign-up with the address does not take the paid account for an unfinished one.
    expect(await removeUnfinishedSignUp(db, email)).toBe(false);

    // The same URL again, signed in now: nothing more is made or applied.
    const again = await returnFromGuestCheckout(
      deps,
      session,
      ctx(new Headers(), viewerOf(made, false)),
    );
    expect(again).toMatchObject({ kind: 'claimed', outcome: { state: 'recorded' } });
    expect(await plansOf(made.id)).toEqual(['trialing']);
    expect(await auditsOf('billing.guest-checkout.claimed', `user:${made.id}`)).toHaveLength(1);
  });

  it('a new address from a browser the checkout does not bind: the account is made, nobody signed in', async () => {
    const email = address('unbound');
    const { session } = await paidAsGuest(email);
    const back = await returnFromGuestCheckout(deps, session, ctx(new Headers()));
    expect(back).toEqual({ kind: 'sign-in', email: `${email[0]}***@example.jp` });
    const made = (await userOf(email))!;
    expect(await db.select().from(sessionTable).where(eq(sessionTable.userId, made.id))).toEqual(
      [],
    );
    expect(await plansOf(made.id)).toEqual(['trialing']);
  });

  it('an address that has an account is never signed in by paying; its owner, signed in, claims the plan once', async () => {
    const owner = await member(address('owner'));
    const sessionsBefore = await db
      .select()
      .from(sessionTable)
      .where(eq(sessionTable.userId, owner.id));
    const { session, bound } = await paidAsGuest(owner.email);

    // The payer's own browser, bound to the checkout: asked to sign in, signed in to nothing.
    const back = await returnFromGuestCheckout(deps, session, ctx(bound));
    expect(back).toEqual({ kind: 'sign-in', email: `${owner.email[0]}***@example.jp` });
    expect(await db.select().from(sessionTable).where(eq(sessionTable.userId, owner.id))).toEqual(
      sessionsBefore,
    );
    expect(await plansOf(owner.id)).toEqual([]);
    const [row] = await db
      .select()
      .from(guestCheckouts)
      .where(eq(guestCheckouts.sessionId, session.id));
    expect(row).toMatchObject({ email: owner.email, claimedBy: null, claimedAt: null });
    // Nobody else claims it, signed in or not, confirmed or not.
    const stranger = await member(address('stranger'));
    expect(await returnFromGuestCheckout(deps, session, ctx(bound, stranger))).toMatchObject({
      kind: 'sign-in',
    });
    const unconfirmed = viewerOf({ id: stranger.id, email: owner.email, name: 'x' }, false);
    expect(await returnFromGuestCheckout(deps, session, ctx(bound, unconfirmed))).toMatchObject({
      kind: 'sign-in',
    });

    // The owner signs in with the password and comes back: the plan is theirs.
    const signedIn = await signIn(
      deps,
      { email: owner.email, password: PASSWORD, next: '/api/billing/checkout-return?session_id=x' },
      { headers: new Headers(), ip: null },
    );
    expect(signedIn.ok).toBe(true);
    const claimed = await returnFromGuestCheckout(deps, session, ctx(new Headers(), owner));
    expect(claimed).toMatchObject({
      kind: 'claimed',
      outcome: { state: 'recorded', status: 'trialing' },
    });
    expect(await plansOf(owner.id)).toEqual(['trialing']);
    expect(await guestCheckoutView(db, session, owner)).toMatchObject({ kind: 'claimed' });
    expect(await guestCheckoutView(db, session, stranger)).toMatchObject({ kind: 'sign-in' });
    const audits = await auditsOf('billing.guest-checkout.claimed', `user:${owner.id}`);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.detail).toMatchObject({ session: session.id, plan: 'monthly' });
    // Claimed once: later visits apply nothing more.
    await returnFromGuestCheckout(deps, session, ctx(new Headers(), owner));
    expect(await auditsOf('billing.guest-checkout.claimed', `user:${owner.id}`)).toHaveLength(1);
    await site.deliver();
    expect(await plansOf(owner.id)).toEqual(['trialing']);
  });

  it('the owner already has a plan: the paid second one is reversed (one plan per reader)', async () => {
    const owner = await member(address('holder'));
    const own = await startCheckout(db, owner, 'yearly', null);
    expect((await site.pay(own.url)).status).toBe(303);
    await site.deliver();
    expect(await plansOf(owner.id)).toEqual(['trialing']);
    // One plan per reader keeps the oldest by the second it was made (a tie goes by id, so
    // either could stay): the guest's is paid in a later second than the owner's own.
    const ownSecond = Math.floor(Date.now() / 1000);
    await vi.waitUntil(() => Math.floor(Date.now() / 1000) > ownSecond, {
      timeout: 2_000,
      interval: 20,
    });

    const { session, bound } = await paidAsGuest(owner.email);
    expect(await returnFromGuestCheckout(deps, session, ctx(bound))).toMatchObject({
      kind: 'sign-in',
    });
    const back = await returnFromGuestCheckout(deps, session, ctx(new Headers(), owner));
    expect(back).toMatchObject({ kind: 'claimed', outcome: { state: 'duplicate' } });
    expect(await wasReversedAsDuplicate(db, session.subscription as string)).toBe(true);
    expect((await plansOf(owner.id)).sort()).toEqual(['canceled', 'trialing']);
  });

  it('the webhook records the paid checkout unclaimed and applies it to nobody', async () => {
    const email = address('hook');
    const { session } = await paidAsGuest(email);
    await site.deliver();
    const [row] = await db
      .select()
      .from(guestCheckouts)
      .where(eq(guestCheckouts.sessionId, session.id));
    expect(row).toMatchObject({ email, claimedAt: null, subscriptionId: session.subscription });
    expect(await userOf(email)).toBeNull();
    const recorded = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, session.subscription as string));
    expect(recorded).toEqual([]);
  });
});
