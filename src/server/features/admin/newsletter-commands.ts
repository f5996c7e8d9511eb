import 'server-only';
import { z } from '@/lib/zod';
import { emailField } from '@/server/features/identity';
import {
  type AddressResult,
  applyMailReport,
  mailReportSchema,
  MAX_MAIL_BYTES,
  NewsletterError,
  queueNewsletter,
  readMailReport,
  SEGMENTS,
  suppressAddress,
  SUPPRESSION_REASONS,
  tooLarge,
  unsuppressAddress,
} from '@/server/features/newsletter';
import { SUPPRESSION_REASON_LABELS } from '@/lib/newsletter/console';
import { type AdminCommand, type RawArgs, UsageError, defineCommand } from './command';

/**
 * Newsletters from the command line: queue a post for a segment, the suppression list, and the
 * bounces and complaints that come back by mail (piped in by the mail server).
 */

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

/** The internal flag that carries the report read from standard input to the command. */
const REPORT_ARG = 'mail-report';
const BOUNCE_COMMAND = 'newsletter-bounce';

/** Whether the command line runs the command a mail server pipes mail into. */
export const mailPipeCommand = (argv: readonly string[]): boolean => argv[0] === BOUNCE_COMMAND;

/** The mail on standard input, at most MAX_MAIL_BYTES (the rest is read and dropped). */
export async function readMailInput(
  input: AsyncIterable<Buffer | string> & { isTTY?: boolean },
): Promise<Buffer> {
  if (input.isTTY)
    throw new UsageError(
      `メールを 1 通、標準入力から渡してください: npm run --silent admin -- ${BOUNCE_COMMAND} < message.eml`,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    // Read to the end all the same: the mail server writing into the pipe sees no broken pipe.
    if (size <= MAX_MAIL_BYTES) chunks.push(bytes);
  }
  if (size > MAX_MAIL_BYTES) throw tooLarge(size);
  return Buffer.concat(chunks);
}

/**
 * Run by scripts/admin.ts in the CLI process, before the command is run or sent to the server:
 * for newsletter-bounce, reads the mail from standard input and parses it here, so only the
 * small report (mail-report.ts) reaches the command, and the server never parses mail.
 */
export async function localBounceArgs(
  command: string,
  args: RawArgs,
  input: AsyncIterable<Buffer | string> & { isTTY?: boolean } = process.stdin,
): Promise<RawArgs> {
  const out: RawArgs = { ...args };
  delete out[REPORT_ARG]; // only ever set here, never taken from the command line
  if (command !== BOUNCE_COMMAND) return out;
  const report = await readMailReport(await readMailInput(input));
  return { ...out, [REPORT_ARG]: JSON.stringify(report) };
}

const reportArg = z
  .string({ error: `メールを標準入力から渡してください (${BOUNCE_COMMAND} < message.eml)。` })
  .max(10_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: '読み取った報告が壊れています。' });
      return z.NEVER;
    }
  })
  .pipe(mailReportSchema);

const VERDICT_LINES: Record<AddressResult['verdict'], string> = {
  bounce: '恒久的な不達の通知です',
  complaint: '迷惑メールの報告です',
  delayed: '一時的な遅延・失敗の通知です。再送は受信側が続けるため、何も変更していません',
  'not-the-address':
    '恒久的な失敗ですが、理由がアドレスではなく送信側・メールの内容・ポリシーにあるため、配信停止リストには加えていません',
  'not-failed': '配信の失敗を伝える通知ではありません。何も変更していません',
  'not-a-complaint': '苦情以外の報告です。何も変更していません',
};

function resultLine(result: AddressResult): string {
  const code = result.code ? ` (${result.code})` : '';
  const head = `${result.email}: ${VERDICT_LINES[result.verdict]}${code}`;
  const reason = result.verdict === 'complaint' ? 'complaint' : 'bounce';
  const label = `理由: ${SUPPRESSION_REASON_LABELS[reason]}`;
  switch (result.suppression) {
    case 'added':
      return `${head}。配信停止リストに加えました (${label})。`;
    case 'upgraded':
      return `${head}。配信停止リストの理由を「${SUPPRESSION_REASON_LABELS.complaint}」に改めました。`;
    case 'kept':
      return `${head}。すでに配信停止リストにあるため、何も変更していません。`;
    default:
      return `${head}。`;
  }
}

const bounceCommand = defineCommand({
  name: BOUNCE_COMMAND,
  summary:
    '返送された不達通知 (DSN) または迷惑メールの報告 (ARF) を標準入力から 1 通読み、該当するアドレスを配信停止リストに加える',
  usage: `${BOUNCE_COMMAND} < message.eml`,
  args: z.object({ [REPORT_ARG]: reportArg }).strict(),
  async run({ database, actor }, args) {
    const outcome = await applyMailReport(database.db, args[REPORT_ARG], actor);
    if (outcome.kind === 'not-a-report')
      throw new UsageError(
        `不達通知 (multipart/report; report-type=delivery-status) でも迷惑メールの報告 (report-type=feedback-report) でもないメールです (${outcome.contentType})。何も変更していません。`,
      );
    if (outcome.kind === 'unknown-recipient')
      throw new UsageError(
        'このサイトのニュースレターを送った宛先が、このメールのどこにも見つかりません。何も変更していません。',
      );
    return outcome.results.map(resultLine);
  },
});

export const newsletterCommands: AdminCommand[] = [
  sendCommand,
  suppressCommand,
  unsuppressCommand,
  bounceCommand,
];
