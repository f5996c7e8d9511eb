import 'server-only';
import { z } from '@/lib/zod';
import { revokeFeedByStaff } from '@/server/features/podcast';
import { emailField } from '@/server/features/identity';
import { type AdminCommand, defineCommand } from './command';
import { requireUser } from './user-commands';

/**
 * A reader's private podcast feed address leaked (listed in a public directory, say): staff
 * revoke it (docs/decisions/062-private-podcast-feeds.md). Its feed and files answer 403 on the
 * next request; the reader gets a new address on /account. Audited.
 */
const feedRevoke = defineCommand({
  name: 'feed-revoke',
  summary:
    '読者のポッドキャスト用フィード URL を無効にする (漏れた URL を止める。新しい URL はアカウントページで発行)',
  usage: 'feed-revoke --email E',
  args: z.object({ email: emailField }).strict(),
  async run({ database, actor }, { email }) {
    const reader = await requireUser(database.db, email);
    return (await revokeFeedByStaff(database.db, reader.id, actor))
      ? [`${email} のポッドキャスト用フィード URL を無効にしました。`]
      : [`${email} に有効なポッドキャスト用フィード URL はありません。何も変更していません。`];
  },
});

export const podcastCommands: AdminCommand[] = [feedRevoke];
