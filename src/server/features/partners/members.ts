import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { user, userPublicProfiles } from '@/server/platform/db/schema';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { STAFF_ROLES } from '@/lib/identity/roles';
import { emailField } from '@/server/features/identity';
import { findUserByEmail, setPartnerId } from '@/server/features/profiles';
import { partnerNotFound } from './partners';
import { refusedFields } from '@/server/platform/forms/submit';

/**
 * A partner's members: users whose public profile names it (SPEC §6 partnerId). Staff add
 * them by e-mail and remove them; both leave an audit record, as any role change does.
 */

export type PartnerMember = { userId: string; email: string; displayName: string };

export async function listMembers(db: Db, partnerId: string): Promise<PartnerMember[]> {
  if (partnerId === '') return [];
  return db
    .select({
      userId: user.id,
      email: user.email,
      displayName: userPublicProfiles.displayName,
    })
    .from(userPublicProfiles)
    .innerJoin(user, eq(user.id, userPublicProfiles.userId))
    .where(eq(userPublicProfiles.partnerId, partnerId))
    .orderBy(asc(user.email));
}

/** Moves a user from one partner to another ('' is none), with the audit record of it. */
async function changePartner(
  db: Db,
  userId: string,
  change: { from: string; to: string },
  actor: Actor,
): Promise<void> {
  await setPartnerId(db, userId, change.to);
  await recordActorAction(db, actor, {
    action: 'partner-changed',
    target: `user:${userId}`,
    detail: change,
  });
}

/**
 * Adding and removing are asked for by one form (its intent), for a partner from the path
 * (null when there is none: 404).
 */
type MemberAction = (
  db: Db,
  partner: { id: string; name: string } | null,
  input: Record<string, unknown>,
  actor: Actor,
) => Promise<FormResult>;

export const addMember: MemberAction = async (db, partner, input, actor) => {
  if (!partner) return partnerNotFound;
  const email = emailField.safeParse(input.email);
  if (!email.success)
    return refusedFields({
      email: email.error.issues[0]?.message ?? 'メールアドレスを入力してください。',
    });
  const found = await findUserByEmail(db, email.data);
  const refuse = (message: string): FormResult => ({
    ok: false,
    status: 400,
    message,
    fieldErrors: { email: message },
  });
  if (!found || found.partnerId === null)
    return refuse(
      'このメールアドレスの会員は見つかりません。先に会員登録をしてもらってから追加してください。',
    );
  if (STAFF_ROLES.includes(found.role as (typeof STAFF_ROLES)[number]))
    return refuse('スタッフはすべてのパートナー企業を管理できるため、メンバーには追加できません。');
  if (found.partnerId === partner.id) return refuse('この会員はすでにこの企業のメンバーです。');
  if (found.partnerId !== '')
    return refuse(
      'この会員はすでに別のパートナー企業のメンバーです。先にそちらから外してください。',
    );
  await changePartner(db, found.id, { from: '', to: partner.id }, actor);
  return { ok: true, message: `${found.email} を ${partner.name} のメンバーに追加しました。` };
};

export const removeMember: MemberAction = async (db, partner, input, actor) => {
  if (!partner) return partnerNotFound;
  const userId = typeof input.userId === 'string' ? input.userId : '';
  const member = (await listMembers(db, partner.id)).find((m) => m.userId === userId);
  // Someone else's member, or nobody: as if it did not exist.
  if (!member) return { ok: false, status: 404, message: 'メンバーが見つかりません。' };
  await changePartner(db, member.userId, { from: partner.id, to: '' }, actor);
  return { ok: true, message: `${member.email} をメンバーから外しました。` };
};
