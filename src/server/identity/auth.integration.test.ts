import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { account, session, user } from '@/server/db/schema';
import { createTestDatabase } from '@/server/db/testing/test-database';
import { type Auth, createAuth } from './auth';

describe('identity on our own database (better-auth)', () => {
  let database: Database;
  let auth: Auth;
  beforeAll(async () => {
    database = await createTestDatabase();
    auth = createAuth(database.db, { secret: 'x'.repeat(32), baseURL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await database.close();
  });

  it('signs up with e-mail and password, storing only a hash, and signs in with a database session', async () => {
    const signedUp = await auth.api.signUpEmail({
      body: { email: 'hanako@example.jp', password: 'correct horse battery', name: '山田 花子' },
    });
    expect(signedUp.user.email).toBe('hanako@example.jp');
    const [stored] = await database.db
      .select()
      .from(account)
      .where(eq(account.userId, signedUp.user.id));
    expect(stored!.password).toBeTruthy();
    expect(stored!.password).not.toContain('correct horse battery');
    const [row] = await database.db.select().from(user).where(eq(user.id, signedUp.user.id));
    expect(row!.role).toBe('member');

    const signedIn = await auth.api.signInEmail({
      body: { email: 'hanako@example.jp', password: 'correct horse battery' },
    });
    expect(signedIn.token).toBeTruthy();
    const sessions = await database.db
      .select()
      .from(session)
      .where(eq(session.userId, signedUp.user.id));
    expect(sessions.map((s) => s.token)).toContain(signedIn.token);
  });

  it('refuses a wrong password and a too-short one', async () => {
    await expect(
      auth.api.signInEmail({ body: { email: 'hanako@example.jp', password: 'wrong password' } }),
    ).rejects.toThrow();
    await expect(
      auth.api.signUpEmail({ body: { email: 'short@example.jp', password: 'short', name: 'x' } }),
    ).rejects.toThrow();
    expect(
      await database.db.select().from(user).where(eq(user.email, 'short@example.jp')),
    ).toHaveLength(0);
  });

  it('answers the sign-up request with an HttpOnly, SameSite=Lax session cookie', async () => {
    const response = await auth.handler(
      new Request('http://localhost:3000/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        body: JSON.stringify({
          email: 'taro@example.jp',
          password: 'another good password',
          name: '佐藤 太郎',
        }),
      }),
    );
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});
