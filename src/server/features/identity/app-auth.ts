import 'server-only';
import { singleton } from '@/lib/singleton';
import { type Db, getDb } from '@/server/platform/db/client';
import { getAppSecret } from '@/server/platform/security/app-secret';
import { type Auth, createAuth } from './auth';

/** One auth per database (tests swap the database with useDatabase). */
const auths = singleton('auth', () => new WeakMap<Db, Auth>());

/** The app's auth, on the app's database, signed with the app secret (APP_SECRET or DATA_DIR/app-secret). */
export async function appAuth(): Promise<Auth> {
  const db = await getDb();
  let auth = auths.get(db);
  // A sub-key of its own, so that auth cookies and signed media URLs never share a key.
  if (!auth)
    auths.set(
      db,
      (auth = createAuth(db, { secret: `auth:${getAppSecret().toString('base64url')}` })),
    );
  return auth;
}
