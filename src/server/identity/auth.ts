import 'server-only';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import * as schema from '@/server/db/schema';

/**
 * better-auth on our own database (DESIGN.md decision 4): e-mail and password, sessions in
 * the database, the library's password hashing. Built per database so tests can use their own.
 */
export function createAuth(db: Db, options: { secret: string; baseURL?: string }) {
  return betterAuth({
    appName: env().SITE_NAME,
    baseURL: options.baseURL ?? env().SITE_URL,
    secret: options.secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
    },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'member', input: false },
      },
    },
    advanced: {
      useSecureCookies: (options.baseURL ?? env().SITE_URL).startsWith('https:'),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
