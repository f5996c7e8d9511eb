import 'server-only';
import { z } from '@/lib/zod';
import { emailField } from '@/server/identity/validation';
import { NewsletterError, SEGMENTS, queueNewsletter } from '@/server/newsletter/queue';
import {
  SUPPRESSION_REASONS,
  suppressAddress,
  unsuppressAddress,
} from '@/server/newsletter/suppressions';
import { type AdminCommand, UsageError, defineCommand } from './command';

/** Newsletters from the command line: queue a post for a segment, and the suppression list. */

const SEGMENT_LABELS = { all: '配信を希望した全員', free: '無料会員', paid: '有料会員' } as const;

const sendCommand = defineCommand({
  name: 'newsletter-send',
  summary: '記事をニュースレターとして配信キューに入れ、入れた通数を表示する',
  usage: 'newsletter-send --post ID [--segment all|free|paid]',
  args: z
    .object({
      post: z.string().trim().min(1).max(100),
      segment: z.enum(SEGMENTS).default('all'),
    })
    .strict(),
  async run({ database, actor }, { post, segment }) {
    try {
      const { sendId, queued } = await queueNewsletter(database.db, {
        contentId: post,
        segment,
        requestedBy: null,
        actor,
      });
      return [
        `記事 ${post} を${SEGMENT_LABELS[segment]}あてに ${queued} 通、配信キューに入れました (send ${sendId})。`,
        queued > 0
          ? '起動中のサーバーが順に送信します (NEWSLETTER_RATE_PER_SECOND 通/秒)。'
          : '配信対象の読者がいないため、送信するものはありません。',
      ];
    } catch (error) {
      if (error instanceof NewsletterError) throw new UsageError(error.message);
      throw error;
    }
  },
});

const suppressCommand = defineCommand({
  name: 'newsletter-suppress',
  summary: 'アドレスをニュースレターの配信停止リストに加える (不達・苦情・手動)',
  usage: 'newsletter-suppress --email X [--reason bounce|complaint|manual] [--note TEXT]',
  args: z
    .object({
      email: emailField,
      reason: z.enum(SUPPRESSION_REASONS).default('manual'),
      note: z.string().trim().max(500).default(''),
    })
    .strict(),
  async run({ database, actor }, { email, reason, note }) {
    const changed = await suppressAddress(database.db, { email, reason, note, actor });
    return [
      changed
        ? `${email} を配信停止リストに加えました (理由: ${reason})。以後のニュースレターは送られません。`
        : `${email} はすでに配信停止リストにあります (理由: ${reason})。何も変更していません。`,
    ];
  },
});

const unsuppressCommand = defineCommand({
  name: 'newsletter-unsuppress',
  summary: 'アドレスをニュースレターの配信停止リストから外す',
  usage: 'newsletter-unsuppress --email X',
  args: z.object({ email: emailField }).strict(),
  async run({ database, actor }, { email }) {
    const removed = await unsuppressAddress(database.db, { email, actor });
    return [
      removed
        ? `${email} を配信停止リストから外しました。配信を希望していれば、次のニュースレターから届きます。`
        : `${email} は配信停止リストにありません。何も変更していません。`,
    ];
  },
});

export const newsletterCommands: AdminCommand[] = [sendCommand, suppressCommand, unsuppressCommand];
