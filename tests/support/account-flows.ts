import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, onTestFinished, vi } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { user } from '@/server/platform/db/schema';
import {
  type FlowDeps,
  type FlowResult,
  signIn,
  signUp,
} from '@/server/features/account/account-flows';
import { type Auth, createAuth } from '@/server/features/identity/auth';
import type { AppUser } from '@/server/features/identity/session-user';
import { listOutbox } from '@/server/platform/mail/mailer';
import { createTestDatabase } from './db/test-database';

export const BASE = 'http://localhost:3000';
export const PASSWORD = 'kumo-no-ue-no-sora';

/** The sign-up form as a reader fills it in: the test password twice, and consent. */
export const signUpForm = (email: string, displayName: string) => ({
  email,
  password: PASSWORD,
  passwordConfirm: PASSWORD,
  displayName,
  consent: 'on',
});

/** The member the account-flow tests follow: signed up by the first test of sign-up. */
export const HANAKO = {
  email: 'hanako@example.jp',
  password: PASSWORD,
  passwordConfirm: PASSWORD,
  displayName: '山田 花子',
  consent: 'on',
  newsletter: 'on',
} as const;

/**
 * The account-flow tests' setup: a database, better-auth on it and the flows' dependencies
 * (ready inside the tests), a fresh client address per call, and the mails and links they read.
 * `hanako` starts a file where the sign-up tests leave her: signed up, or verified too.
 */
export function setUpAccountFlows(options: { hanako?: 'signed-up' | 'verified' } = {}) {
  let ipCounter = 0;
  const t = {
    database: undefined as unknown as Database,
    auth: undefined as unknown as Auth,
    deps: undefined as unknown as FlowDeps,
    /** A fresh address per call, so per-IP limits only bite where a test means them to. */
    ctx: (cookie?: string) => ({
      headers: new Headers(cookie ? { cookie } : {}),
      ip: `192.0.2.${++ipCounter % 250}`,
    }),
    mailsTo: (to: string) => listOutbox(t.database.db, { to }),
    linkIn: (text: string | null) => /https?:\/\/\S+/.exec(text ?? '')?.[0] ?? '',
    cookieOf: (result: FlowResult) =>
      result.ok ? (result.setCookies ?? []).map((c) => c.split(';')[0]).join('; ') : '',
    /** Signs up, follows the mailed link and signs in: the member's cookie and user. */
    verifiedMember: async (email: string, name = '会員 テスト') => {
      const result = await signUp(t.deps, signUpForm(email, name), t.ctx());
      expect(result.ok).toBe(true);
      const [mail] = await t.mailsTo(email);
      const response = await t.auth.handler(new Request(t.linkIn(mail!.textBody)));
      expect(response.status).toBe(302);
      const signedIn = await signIn(t.deps, { email, password: PASSWORD }, t.ctx());
      expect(signedIn.ok).toBe(true);
      const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
      const appUser: AppUser = {
        id: row!.id,
        email,
        name: row!.name,
        role: 'member',
        emailVerified: true,
      };
      return { cookie: t.cookieOf(signedIn), user: appUser };
    },
  };
  beforeAll(async () => {
    t.database = await createTestDatabase();
    t.auth = createAuth(t.database.db, { secret: 'x'.repeat(32), baseURL: BASE });
    t.deps = { db: t.database.db, auth: t.auth };
    if (options.hanako) {
      expect(await signUp(t.deps, HANAKO, t.ctx())).toMatchObject({ ok: true });
      if (options.hanako === 'verified') {
        const [mail] = await t.mailsTo(HANAKO.email);
        await t.auth.handler(new Request(t.linkIn(mail!.textBody)));
      }
    }
  });
  afterAll(async () => {
    await t.database?.close();
  });
  return t;
}

/**
 * Limits count in fixed windows (10 minutes, an hour): a test that counts up to one would see
 * the count start again if a window ended halfway through (as it does for a real attacker).
 * So the test's clock starts at the beginning of the current window and runs on from there
 * (only `Date` is faked; timers stay real), instead of waiting for the next window. The clock
 * is real again after the test.
 */
export function startAtWindowStart(windowMs: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'], now: now - (now % windowMs), shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
