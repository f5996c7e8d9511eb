import 'server-only';
import { getProfileDetails, setNewsletterConsent, updateProfile } from '@/server/features/profiles';
import { forgetStoredImage, receiveFormImage } from '@/server/platform/storage/store-image';
import type { FlowContext, FlowDeps, FlowResult } from './account-flows';
import { type AppUser, profileInput } from '@/server/features/identity';
import { invalidInput } from '@/server/platform/forms/submit';
import { itemsOfWriter, purgeItems } from '@/server/features/comments';

/** Avatars are small square pictures: 2 MB is plenty. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** /account/edit: display name, avatar and the reader's profile fields. */
export async function editProfile(
  deps: FlowDeps,
  input: Record<string, unknown> & { avatar?: File | null },
  ctx: FlowContext,
  user: AppUser,
): Promise<FlowResult> {
  const { avatar, removeAvatar, ...fields } = input;
  const parsed = profileInput.safeParse(fields);
  if (!parsed.success) return invalidInput(parsed.error);
  const current = await getProfileDetails(deps.db, user.id);
  let avatarUrl: string | null | undefined;
  if (avatar) {
    const received = await receiveFormImage(avatar, AVATAR_MAX_BYTES, 'avatar');
    if (!received.ok) return received.result;
    avatarUrl = received.image.url;
  } else if (removeAvatar === 'on' || removeAvatar === true) {
    avatarUrl = null;
  }
  const { newsletter, ...profileFields } = parsed.data;
  await updateProfile(deps.db, user.id, {
    ...profileFields,
    ...(avatarUrl === undefined ? {} : { avatarUrl }),
  });
  // Their comments show the name: those items' pages (and kept comments) show the new one.
  if (current && current.displayName !== profileFields.displayName)
    purgeItems(await itemsOfWriter(deps.db, user.id));
  // Logged and audited there when it changes (特定電子メール法: the record of consent).
  await setNewsletterConsent(deps.db, {
    userId: user.id,
    subscribed: newsletter,
    method: 'account',
    page: '/account/edit',
    ip: ctx.ip,
    userAgent: ctx.headers.get('user-agent'),
  });
  if (parsed.data.displayName !== user.name) {
    await deps.auth.api.updateUser({
      body: { name: parsed.data.displayName },
      headers: ctx.headers,
    });
  }
  // The replaced picture is no longer anyone's.
  if (avatarUrl !== undefined) await forgetStoredImage(current?.avatarUrl);
  return { ok: true, redirectTo: '/account/edit?saved=1', message: 'プロフィールを保存しました。' };
}
