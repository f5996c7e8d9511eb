import { describe, expect, it } from 'vitest';
import {
  START_PATH,
  checkoutIntentPath,
  readCheckoutIntent,
} from '@/server/features/billing/checkout-intent';
import { signUp } from './account-flows';
import { ACCOUNT_MAIL_LIMITS } from '@/server/features/identity/account-mail';
import { resendVerification } from './resend-verification';
import { readSentMail } from '@/server/features/identity/sign-up-sent';
import {
  BASE,
  startAtWindowStart,
  setUpAccountFlows,
  signUpForm,
} from '@test-support/account-flows';

/**
 * The reader path: a visitor creates the account on the final confirmation screen; the mail's
 * link verifies the address, signs the reader in once, and goes on to the plan's checkout with
 * the page they came from (docs/decisions, the reader path).
 */
describe('sign-up on the confirmation screen: the plan and the page of origin ride the mail link', () => {
  const t = setUpAccountFlows();

  /** Signs up with these extra fields; the verification link mailed, and where it returns to. */
  async function signUpWith(email: string, extra: Record<string, string>) {
    const result = await signUp(t.deps, { ...signUpForm(email, '読者'), ...extra }, t.ctx());
    expect(result).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
    const [mail] = await t.mailsTo(email);
    const link = t.linkIn(mail!.textBody);
    return { link, callback: new URL(link).searchParams.get('callbackURL') ?? '' };
  }

  it('keeps the plan and next in the link, signs in on the first click only', async () => {
    const email = 'path@example.jp';
    const { link, callback } = await signUpWith(email, { plan: 'monthly', next: '/posts/abc' });
    expect(callback.startsWith(`${START_PATH}?intent=`)).toBe(true);
    const token = new URL(callback, BASE).searchParams.get('intent');
    expect(readCheckoutIntent(token, email)).toEqual({ plan: 'monthly', next: '/posts/abc' });
    // Bound to the address the mail went to.
    expect(readCheckoutIntent(token, 'other@example.jp')).toBeNull();

    const first = await t.auth.handler(new Request(link));
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(callback);
    expect(first.headers.getSetCookie().join(';')).toMatch(/session_token=[^;]+/);

    // The same link again: it lands where it did, but no longer signs anyone in.
    const second = await t.auth.handler(new Request(link));
    expect(second.status).toBe(302);
    expect(second.headers.getSetCookie().join(';')).not.toMatch(/session_token=[^;]+/);
  });

  it('drops a plan that is not in the catalogue (the link returns to next only)', async () => {
    const { callback } = await signUpWith('noplan@example.jp', {
      plan: 'platinum',
      next: '/posts/abc',
    });
    expect(callback).toBe('/login?verified=1&next=%2Fposts%2Fabc');
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/%2F/evil.example',
    '/%5Cevil.example',
    'https://evil.example/',
  ])('refuses %s as the page to return to', async (next) => {
    const email = `redirect-${Math.random().toString(36).slice(2)}@example.jp`;
    const { callback } = await signUpWith(email, { plan: 'yearly', next });
    const token = new URL(callback, BASE).searchParams.get('intent');
    expect(readCheckoutIntent(token, email)).toEqual({ plan: 'yearly', next: '/' });
  });

  it('refuses an altered, expired or foreign intent', () => {
    const email = 'intent@example.jp';
    const path = checkoutIntentPath({ plan: 'monthly', next: '/posts/x' }, email, 60, 1_000_000);
    const token = new URL(path, BASE).searchParams.get('intent')!;
    expect(readCheckoutIntent(token, email, 1_000_000)).toEqual({
      plan: 'monthly',
      next: '/posts/x',
    });
    expect(readCheckoutIntent(token, email, 1_000_000 + 61_000)).toBeNull();
    const [payload, exp, mac] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ plan: 'yearly', next: '/posts/x' })).toString(
      'base64url',
    );
    expect(readCheckoutIntent(`${forged}.${exp}.${mac}`, email, 1_000_000)).toBeNull();
    expect(readCheckoutIntent(`${payload}.${exp}.${mac}x`, email, 1_000_000)).toBeNull();
    expect(readCheckoutIntent(undefined, email)).toBeNull();
  });
});

describe('the sent page names the address and sends the mail again, plan and next kept', () => {
  const t = setUpAccountFlows();

  const cookieValue = (setCookie: string) => setCookie.split(';')[0]!.split('=').slice(1).join('=');

  it('the sign-up leaves a signed note of the mail; the resend mails the same intent', async () => {
    const email = 'resend@example.jp';
    const result = await signUp(
      t.deps,
      { ...signUpForm(email, '読者'), plan: 'yearly', next: '/posts/abc' },
      t.ctx(),
    );
    expect(result.ok).toBe(true);
    const setCookie = (result.ok && result.setCookies?.[0]) || '';
    expect(setCookie).toMatch(/^axis_sign_up_sent=[^;]+; Path=\/; Max-Age=3600; HttpOnly/);
    expect(readSentMail(cookieValue(setCookie))).toEqual({
      email,
      plan: 'yearly',
      next: '/posts/abc',
    });
    // Expires with the link; not readable as anything else.
    expect(readSentMail(cookieValue(setCookie), Date.now() + 3601_000)).toBeNull();
    expect(readSentMail(`${cookieValue(setCookie)}x`)).toBeNull();

    const resent = await resendVerification(t.deps, t.ctx(t.cookieOf(result)));
    expect(resent).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1&resent=1' });
    const mails = await t.mailsTo(email);
    expect(mails.filter((mail) => mail.kind === 'verify-email')).toHaveLength(2);
    const newest = mails.find((mail) => mail.kind === 'verify-email')!;
    const link = t.linkIn(newest.textBody);
    const callback = new URL(link).searchParams.get('callbackURL') ?? '';
    expect(readCheckoutIntent(new URL(callback, BASE).searchParams.get('intent'), email)).toEqual({
      plan: 'yearly',
      next: '/posts/abc',
    });
    // The resent link signs in, once.
    const first = await t.auth.handler(new Request(link));
    expect(first.headers.getSetCookie().join(';')).toMatch(/session_token=[^;]+/);

    // Confirmed now: a resend answers the same and mails nothing.
    const again = await resendVerification(t.deps, t.ctx(t.cookieOf(result)));
    expect(again).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1&resent=1' });
    expect((await t.mailsTo(email)).filter((mail) => mail.kind === 'verify-email')).toHaveLength(2);
  });

  it('without a valid note there is nothing to resend', async () => {
    expect(await resendVerification(t.deps, t.ctx())).toMatchObject({ ok: false, status: 400 });
    expect(
      await resendVerification(t.deps, t.ctx('axis_sign_up_sent=e30.9999999999.forged')),
    ).toMatchObject({ ok: false, status: 400 });
  });

  it('caps the mails to one address, answering past the cap as before it', async () => {
    startAtWindowStart(ACCOUNT_MAIL_LIMITS.verification.windowMs);
    const email = 'resend-limit@example.jp';
    const result = await signUp(t.deps, signUpForm(email, '読者'), t.ctx());
    const answers = [];
    for (let i = 0; i < ACCOUNT_MAIL_LIMITS.verification.max + 1; i++)
      answers.push(await resendVerification(t.deps, t.ctx(t.cookieOf(result))));
    const seen = answers.map((answer) => (answer.ok ? answer.redirectTo : answer));
    expect(seen).toEqual(answers.map(() => '/sign-up?sent=1&resent=1'));
    // The sign-up's mail and the resends, up to the cap.
    expect((await t.mailsTo(email)).filter((mail) => mail.kind === 'verify-email')).toHaveLength(
      ACCOUNT_MAIL_LIMITS.verification.max,
    );
  });
});
