import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { eq } from 'drizzle-orm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { listAudit } from '@/server/platform/audit/audit-log';
import { session, user } from '@/server/platform/db/schema';
import { hit } from '@/server/platform/rate-limit/limiter';
import {
  LIMITS,
  SIGN_IN_SLOWDOWN,
  type FlowDeps,
  type FlowResult,
  signIn,
  signInDelayMs,
  signUp,
} from './account-flows';
import {
  BASE,
  PASSWORD,
  startAtWindowStart,
  setUpAccountFlows,
  signUpForm,
} from '@test-support/account-flows';

describe('account flows against the database: verification and sign-in', () => {
  const t = setUpAccountFlows({ hanako: 'signed-up' });
  const { ctx, mailsTo, linkIn, verifiedMember } = t;

  describe('verification and sign-in', () => {
    it('verifies with the mailed link; the link used again changes nothing', async () => {
      const [mail] = (await mailsTo('hanako@example.jp')).filter((m) => m.kind === 'verify-email');
      const link = linkIn(mail!.textBody);
      const first = await t.auth.handler(new Request(link));
      expect(first.status).toBe(302);
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(row!.emailVerified).toBe(true);
      const again = await t.auth.handler(new Request(link));
      expect(again.status).toBe(302);
      const forged = await t.auth.handler(
        new Request(`${BASE}/api/auth/verify-email?token=forged&callbackURL=%2Flogin`),
      );
      expect(forged.headers.get('location')).toContain('error=INVALID_TOKEN');
    });

    it('returns a new member to the page they signed up from, never to another site', async () => {
      const signUpFrom = async (email: string, next: string) => {
        const result = await signUp(t.deps, { ...signUpForm(email, '戻る 読者'), next }, ctx());
        expect(result.ok).toBe(true);
        const [mail] = await mailsTo(email);
        const response = await t.auth.handler(new Request(linkIn(mail!.textBody)));
        return new URL(response.headers.get('location') ?? '', BASE);
      };
      const back = await signUpFrom('returning@example.jp', '/posts/post-001?x=1');
      expect(back.pathname).toBe('/login');
      expect(back.searchParams.get('verified')).toBe('1');
      expect(back.searchParams.get('next')).toBe('/posts/post-001?x=1');
      const away = await signUpFrom('away@example.jp', 'https://evil.example/');
      expect(away.searchParams.has('next')).toBe(false);
    });

    it('signs in with an HttpOnly, SameSite=Lax database session and audits it with the address', async () => {
      const result = await signIn(
        t.deps,
        { email: 'HANAKO@example.jp', password: PASSWORD, next: '/posts/x' },
        { headers: new Headers(), ip: '198.51.100.7' },
      );
      expect(result).toMatchObject({ ok: true, redirectTo: '/posts/x' });
      if (!result.ok) return;
      const cookie = result.setCookies!.find((c) => c.startsWith('axis.session_token='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const [row] = await t.database.db
        .select()
        .from(user)
        .where(eq(user.email, 'hanako@example.jp'));
      expect(
        await t.database.db.select().from(session).where(eq(session.userId, row!.id)),
      ).not.toHaveLength(0);
      const audit = await listAudit(t.database.db, 50);
      expect(
        audit.find((a) => a.action === 'sign-in' && a.target === `user:${row!.id}`),
      ).toMatchObject({ ip: '198.51.100.7' });
    });

    it('never returns to another site after sign-in', async () => {
      // `next` as the form field carries it: the query's percent-encoding already undone.
      for (const next of [
        '//evil.example/x',
        'https://evil.example',
        '/\\evil.example',
        '/\t/evil.example',
        '/\n/evil.example',
        '/%09/evil.example',
        '/%0A/evil',
        '%2F%2Fevil.example',
        '/%5Cevil.example',
        '///evil.example',
        '/.//evil.example',
        'http:evil.example',
        'javascript:alert(1)',
        '//evil.example@localhost:3000',
        'http://localhost:3000.evil.example',
        '/／evil.example',
        `/${'a'.repeat(5000)}`,
      ]) {
        const result = await signIn(
          t.deps,
          { email: 'hanako@example.jp', password: PASSWORD, next },
          ctx(),
        );
        expect(result, JSON.stringify(next)).toMatchObject({ ok: true, redirectTo: '/' });
      }
      const kept = await signIn(
        t.deps,
        { email: 'hanako@example.jp', password: PASSWORD, next: '/posts/x?from=list#body' },
        ctx(),
      );
      expect(kept).toMatchObject({ ok: true, redirectTo: '/posts/x?from=list#body' });
    });

    it('refuses a wrong password with one message for both unknown address and wrong password, and audits it', async () => {
      // The same work for both, so timing tells nothing: an unknown address's password is hashed
      // as a registered one's is checked (node:crypto's scrypt, counted).
      const scrypt = vi.spyOn(crypto, 'scrypt');
      syncBuiltinESMExports();
      onTestFinished(() => {
        scrypt.mockRestore();
        syncBuiltinESMExports();
      });
      const hashesFor = async (email: string) => {
        const before = scrypt.mock.calls.length;
        const answer = await signIn(t.deps, { email, password: 'wrong-password' }, ctx());
        return { answer, hashes: scrypt.mock.calls.length - before };
      };
      const { answer: wrong, hashes } = await hashesFor('hanako@example.jp');
      const { answer: unknown, hashes: unknownHashes } = await hashesFor('nobody@example.jp');
      expect([hashes, unknownHashes]).toEqual([1, 1]);
      expect(wrong).toEqual(unknown);
      expect(wrong).toMatchObject({
        ok: false,
        status: 401,
        message: 'メールアドレスまたはパスワードが正しくありません。',
      });
      const audit = await listAudit(t.database.db, 50);
      expect(audit.filter((a) => a.action === 'sign-in-failed').length).toBeGreaterThanOrEqual(2);
    });

    it("lets the owner in from their own address after a stranger's wrong passwords, and refuses the stranger's address", async () => {
      startAtWindowStart(LIMITS.signInPair.windowMs);
      const { user: owner } = await verifiedMember('owner@example.jp');
      const stranger = () => ({ headers: new Headers(), ip: '203.0.113.66' });
      const answers: FlowResult[] = [];
      for (let i = 0; i < LIMITS.signInPair.max + 2; i++)
        answers.push(
          await signIn(t.deps, { email: 'owner@example.jp', password: `guess-${i}-x` }, stranger()),
        );
      expect(answers.slice(0, LIMITS.signInPair.max).every((a) => !a.ok && a.status === 401)).toBe(
        true,
      );
      for (const refused of answers.slice(LIMITS.signInPair.max)) {
        expect(refused).toMatchObject({ ok: false, status: 429 });
        expect(!refused.ok && refused.message).toMatch(/分ほど待ってから/);
        expect(!refused.ok && refused.retryAfter).toBeGreaterThan(0);
      }
      // Even the right password is refused from that address until the window ends.
      expect(
        await signIn(t.deps, { email: 'owner@example.jp', password: PASSWORD }, stranger()),
      ).toMatchObject({ ok: false, status: 429 });

      const home = await signIn(
        t.deps,
        { email: 'owner@example.jp', password: PASSWORD },
        { headers: new Headers(), ip: '198.51.100.200' },
      );
      expect(home).toMatchObject({ ok: true });

      const audit = await listAudit(t.database.db, 500);
      const failures = audit.filter(
        (a) =>
          a.action === 'sign-in-failed' &&
          a.ip === '203.0.113.66' &&
          a.target === 'email:o***@example.jp',
      );
      expect(failures).toHaveLength(LIMITS.signInPair.max);
      expect(failures[0]!.detail).toMatchObject({ reason: 'INVALID_EMAIL_OR_PASSWORD' });
      expect(
        audit.some(
          (a) =>
            a.action === 'sign-in' && a.target === `user:${owner.id}` && a.ip === '198.51.100.200',
        ),
      ).toBe(true);
    });

    it('counts only failures per address: a success starts the count again', async () => {
      startAtWindowStart(LIMITS.signInPair.windowMs);
      await verifiedMember('typo@example.jp');
      const mine = () => ({ headers: new Headers(), ip: '198.51.100.201' });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < LIMITS.signInPair.max - 1; i++)
          expect(
            await signIn(t.deps, { email: 'typo@example.jp', password: `typo-${i}-x` }, mine()),
          ).toMatchObject({ ok: false, status: 401 });
        expect(
          await signIn(t.deps, { email: 'typo@example.jp', password: PASSWORD }, mine()),
        ).toMatchObject({ ok: true });
      }
    });

    it('slows every attempt on an account past its ceiling, from anywhere, but refuses none', async () => {
      startAtWindowStart(LIMITS.signInAccount.windowMs);
      await verifiedMember('popular@example.jp');
      const waits: number[] = [];
      const slowDeps: FlowDeps = {
        ...t.deps,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      };
      // Strangers spread over many addresses, each under the per-address limit.
      for (let i = 0; i < LIMITS.signInAccount.max; i++)
        expect(
          await signIn(slowDeps, { email: 'popular@example.jp', password: `spray-${i}-x` }, ctx()),
        ).toMatchObject({ ok: false, status: 401 });
      expect(waits).toEqual([]);
      for (let i = 0; i < 6; i++)
        expect(
          await signIn(slowDeps, { email: 'popular@example.jp', password: `more-${i}-x` }, ctx()),
        ).toMatchObject({ ok: false, status: 401 });
      expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000]);
      expect(Math.max(...waits)).toBeLessThanOrEqual(SIGN_IN_SLOWDOWN.maxMs);
      // The owner waits too, and gets in.
      const owner = await signIn(
        slowDeps,
        { email: 'popular@example.jp', password: PASSWORD },
        ctx(),
      );
      expect(owner).toMatchObject({ ok: true });
      expect(waits.at(-1)).toBe(SIGN_IN_SLOWDOWN.maxMs);
      const delayed = (await listAudit(t.database.db, 500)).filter(
        (a) => a.action === 'sign-in-failed' && a.detail.delayedMs !== undefined,
      );
      expect(delayed.length).toBeGreaterThanOrEqual(6);
    });

    it('waits longer with each failure past the ceiling, up to a few seconds', () => {
      const ceiling = LIMITS.signInAccount.max;
      expect(signInDelayMs(0)).toBe(0);
      expect(signInDelayMs(ceiling - 1)).toBe(0);
      expect(signInDelayMs(ceiling)).toBe(SIGN_IN_SLOWDOWN.firstMs);
      expect(signInDelayMs(ceiling + 1)).toBe(2 * SIGN_IN_SLOWDOWN.firstMs);
      expect(signInDelayMs(ceiling + 1000)).toBe(SIGN_IN_SLOWDOWN.maxMs);
      expect(SIGN_IN_SLOWDOWN.maxMs).toBeLessThanOrEqual(5000);
      expect(ceiling).toBeGreaterThan(LIMITS.signInPair.max);
    });

    it('answers 429 after too many attempts from one address', async () => {
      const fixed = () => ({ headers: new Headers(), ip: '203.0.113.9' });
      // The address has used all but one of its attempts in this window (counted straight in
      // the table: a hundred password checks would only cost time).
      const limit = LIMITS.signInIp;
      startAtWindowStart(limit.windowMs);
      for (let i = 0; i < limit.max - 1; i++) await hit(t.database.db, limit, '203.0.113.9');
      const last = { email: 'spray-last@example.jp', password: 'guess-password' };
      expect(await signIn(t.deps, last, fixed())).toMatchObject({ ok: false, status: 401 });
      expect(await signIn(t.deps, last, fixed())).toMatchObject({ ok: false, status: 429 });
      // Another address is not held back by it.
      expect(
        await signIn(t.deps, last, { headers: new Headers(), ip: '203.0.113.10' }),
      ).toMatchObject({ ok: false, status: 401 });
    });
  });
});
