import 'server-only';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import {
  type PartnerActor,
  canActForPartner,
  canRunPartnerProgramme,
  partnerActorOf,
} from '@/server/features/partners/partner-access';
import { type Db, getDb } from '@/server/platform/db/client';
import { type AppUser, getUser } from '@/server/features/identity';
import { partnerIdOfUser } from './contracts';
import { PARTNER_ID } from './partners';

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

/** The partner programme's staff screens (/biz/axis-admin/**): the 404 page for anyone else. */
export async function requireProgrammeStaff(): Promise<PartnerActor> {
  const { actor } = await currentPartnerActor();
  if (!canRunPartnerProgramme(actor)) notFound();
  return actor;
}

/**
 * A partner's dashboard (/biz/partner-admin/{id}): its members and staff, the 404 page for anyone
 * else, asked before anything of the partner is read so another partner's id is never confirmed.
 */
export async function requirePartnerAccess(partnerId: string): Promise<PartnerActor> {
  if (!PARTNER_ID.test(partnerId)) notFound();
  const { actor } = await currentPartnerActor();
  if (!canActForPartner(actor, partnerId)) notFound();
  return actor;
}
