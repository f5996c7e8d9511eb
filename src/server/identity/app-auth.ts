import 'server-only';
import { getDb } from '@/server/db/client';
import { getAppSecret } from '@/server/storage/app-secret';
import { type Auth, createAuth } from './auth';

const holder = globalThis as typeof globalThis & { __axisAuth?: Promise<Auth> };

/** The app's auth, on the app's database, signed with the app secret (APP_SECRET or DATA_DIR/app-secret). */
export function appAuth(): Promise<Auth> {
  holder.__axisAuth ??= getDb().then((db) =>
    // A sub-key of its own, so that auth cookies and signed media URLs never share a key.
    createAuth(db, { secret: `auth:${getAppSecret().toString('base64url')}` }),
  );
  return holder.__axisAuth;
}
