import 'server-only';
import { cache } from 'react';
import { type PartnerActor, partnerActorOf } from '@/server/access/partner-access';
import { type Db, getDb } from '@/server/db/client';
import { getUser } from '@/server/identity/session';
import type { AppUser } from '@/server/identity/session-user';
import { partnerIdOfUser } from './contracts';

/**
 * Who is asking, for the partner rules: the signed-in user with the partner their profile
 * names, read from the database on every request (never from the client).
 */
export async function partnerActorFor(db: Db, user: AppUser | null): Promise<PartnerActor> {
  if (!user) return partnerActorOf(null);
  return partnerActorOf({ role: user.role, partnerId: await partnerIdOfUser(db, user.id) });
}

/** The page being rendered's user and actor, once per request (the page is then personal). */
export const currentPartnerActor = cache(
  async (): Promise<{ user: AppUser | null; actor: PartnerActor }> => {
    const user = await getUser();
    return { user, actor: await partnerActorFor(await getDb(), user) };
  },
);
