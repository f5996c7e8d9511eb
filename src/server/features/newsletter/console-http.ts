import 'server-only';
import { withKeyLock } from '@/lib/keyed-lock';
import {
  AUDIENCES,
  AUDIENCE_LABELS,
  SEGMENTS,
  SEGMENT_LABELS,
  SEND_MODES,
  SUBJECT_FIELDS,
  SUBJECT_TEST,
  TEST_METRICS,
  newsletterPaths,
  overlappingSends,
} from '@/lib/newsletter/console';
import { z, fieldErrors } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { CONTENT_ID, usesBuiltInContent } from '@/server/features/content';
import { getDb } from '@/server/platform/db/client';
import { doneAnswer } from '@/server/platform/http/done-flash';
import {
  type GatedContext,
  gatedEndpoint,
  isStaff,
  type ViewerOption,
} from '@/server/features/identity';
import { type FormResult, jsonAnswer } from '@/server/platform/http/form-endpoint';
import { findSend, stepPost } from './console';
import type { SubjectTest } from './subject-test';
import { renderPreviewLetter } from './preview';
import { sendTestLetter } from './test-letter';
import { NewsletterError, listSends, newsletterSendStatus, queueNewsletter } from './queue';
import {
  normaliseAddress,
  suppressAddress,
  suppressionReasonSchema,
  unsuppressAddress,
} from './suppressions';
import { formatNumber } from '@/lib/format';

/**
 * The route handlers of the newsletter's staff side (/api/admin/newsletter/**): send a post to
 * a segment, a test letter to oneself, a send's status, the letter's preview. Editors and
 * admins: anyone else, signed in or not, gets the console's bare 404 before their input is
 * looked at, so nothing is learnt from the answer. Every send is audited.
 */

export type NewsletterHttpOptions = ViewerOption;

const INVALID = '入力内容を確認してください。ページを読み込み直してください。';
const SAMPLE_MESSAGE = `サンプルの割合は ${SUBJECT_TEST.minSamplePercent}〜${SUBJECT_TEST.maxSamplePercent} の整数で入力してください。`;

/** gatedEndpoint() for the newsletter's staff, where the built-in content service runs. */
function staffEndpoint(
  options: NewsletterHttpOptions,
  config: { name: string; method?: 'GET' | 'POST'; formPage: string; json?: boolean },
  handler: (ctx: GatedContext) => Promise<FormResult | Response>,
): (request: Request) => Promise<Response> {
  return gatedEndpoint(
    {
      name: config.name,
      method: config.method ?? 'POST',
      formPage: config.formPage,
      ...(config.json ? { answers: 'json' as const } : {}),
      viewer: options.viewer,
    },
    (user) => isStaff(user) && usesBuiltInContent(),
    handler,
  );
}

const invalid = (error?: z.ZodError, message = INVALID): FormResult => ({
  ok: false,
  status: 400,
  message,
  fieldErrors: error ? fieldErrors(error) : {},
});

const contentId = z.string().regex(CONTENT_ID);

const sendSchema = z.object({
  contentId,
  segment: z.enum(SEGMENTS),
  mode: z.enum(SEND_MODES),
  /** The confirmation page's box: staff mean to send the post again to readers it reached. */
  resend: z.enum(['1', 'on']).optional(),
  /** A subject line test: two or three non-empty subjects make one (subject-test.ts). */
  ...Object.fromEntries(
    SUBJECT_FIELDS.map((name) => [
      name,
      z
        .string()
        .trim()
        .max(
          SUBJECT_TEST.subjectMaxChars,
          `件名は ${SUBJECT_TEST.subjectMaxChars} 文字以内で入力してください。`,
        )
        .optional(),
    ]),
  ),
  samplePercent: z.coerce
    .number({ error: SAMPLE_MESSAGE })
    .int(SAMPLE_MESSAGE)
    .min(SUBJECT_TEST.minSamplePercent, SAMPLE_MESSAGE)
    .max(SUBJECT_TEST.maxSamplePercent, SAMPLE_MESSAGE)
    .default(SUBJECT_TEST.defaultSamplePercent),
  waitHours: z.coerce
    .number()
    .refine(
      (h) => (SUBJECT_TEST.waitHours as readonly number[]).includes(h),
      '待つ時間を選んでください。',
    )
    .default(SUBJECT_TEST.defaultWaitHours),
  testMetric: z.enum(TEST_METRICS).default('clicks'),
});

/** The subjects typed, without blanks; a test needs two different ones. */
function subjectTestOf(
  data: z.infer<typeof sendSchema>,
  title: string,
): SubjectTest | null | string {
  const typed = SUBJECT_FIELDS.map((name) => (data as Record<string, unknown>)[name]).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  // Only the prefilled title: no test.
  if (typed.length === 0 || (typed.length === 1 && typed[0] === title)) return null;
  if (typed.length === 1) return '件名テストには、件名を 2 つ以上入力してください。';
  if (new Set(typed).size !== typed.length) return '件名テストの件名が重複しています。';
  return {
    subjects: typed,
    samplePercent: data.samplePercent,
    waitHours: data.waitHours,
    metric: data.testMetric,
  };
}

const testSchema = z.object({ contentId, audience: z.enum(AUDIENCES).default('free') });
const previewSchema = z.object({ audience: z.enum(AUDIENCES).default('free') });

export const RESEND_REFUSED =
  'この記事はすでに同じ読者の一部に配信しています。もう一度配信する場合は、確認のチェックを入れてください。';

/**
 * The letter's HTML alone: nothing may run, load from elsewhere or be framed by another site,
 * and nothing is kept (it is a staff member's personal letter, links included).
 */
export const PREVIEW_POLICY = [
  "default-src 'none'",
  "img-src 'self' https: data:",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');

const EMAIL_MESSAGE = 'メールアドレスを正しく入力してください。';
const email = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .max(254, EMAIL_MESSAGE)
  .pipe(z.email({ error: EMAIL_MESSAGE }))
  .transform(normaliseAddress);

const suppressSchema = z.object({
  email,
  reason: suppressionReasonSchema.default('manual'),
  note: z.string().trim().max(500, 'メモは 500 文字以内で入力してください。').default(''),
});
const unsuppressSchema = z.object({ email });

/** The suppression list's routes: admins only (the 404 for editors too, as /admin/users). */
function adminEndpoint(
  options: NewsletterHttpOptions,
  name: string,
  handler: (ctx: GatedContext) => Promise<FormResult>,
): (request: Request) => Promise<Response> {
  return staffEndpoint(options, { name, formPage: newsletterPaths.suppressions }, (ctx) =>
    ctx.user.role === 'admin' ? handler(ctx) : Promise.resolve({ ok: false, status: 404 }),
  );
}

export function newsletterHandlers(options: NewsletterHttpOptions = {}) {
  return {
    /** POST /api/admin/newsletter/suppressions: email, reason, note. Audited by the service. */
    suppress: adminEndpoint(options, 'newsletter-suppress', async ({ input, user }) => {
      const parsed = suppressSchema.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, '入力内容を確認してください。');
      const { email: address, reason, note } = parsed.data;
      const changed = await suppressAddress(await getDb(), {
        email: address,
        reason,
        note,
        actor: `user:${user.id}`,
      });
      return doneAnswer(
        changed
          ? `${address} を配信停止リストに追加しました。このアドレスにはニュースレターが届きません。`
          : `${address} はすでに同じ理由で配信停止リストにあります。`,
        newsletterPaths.suppressions,
      );
    }),

    /** POST /api/admin/newsletter/suppressions/remove: email. Audited by the service. */
    unsuppress: adminEndpoint(options, 'newsletter-unsuppress', async ({ input, user }) => {
      const parsed = unsuppressSchema.safeParse(input);
      if (!parsed.success) return invalid(parsed.error);
      const address = parsed.data.email;
      const removed = await unsuppressAddress(await getDb(), {
        email: address,
        actor: `user:${user.id}`,
      });
      return doneAnswer(
        removed
          ? `${address} を配信停止リストから外しました。配信を希望していれば、次の配信から届きます。`
          : `${address} は配信停止リストにありません。`,
        newsletterPaths.suppressions,
      );
    }),

    /** POST /api/admin/newsletter/sends: contentId, segment, mode (now|withPublication), resend. */
    send: staffEndpoint(
      options,
      { name: 'newsletter-send', formPage: newsletterPaths.sends },
      async ({ input, user, ip }) => {
        const parsed = sendSchema.safeParse(input);
        if (!parsed.success) return invalid(parsed.error);
        const { segment, mode, resend } = parsed.data;
        const id = parsed.data.contentId;
        const db = await getDb();
        // One send of a post at a time on this instance: a double click is not two sends.
        return withKeyLock(`newsletter-send:${id}`, async (): Promise<FormResult> => {
          const post = await stepPost(db, id);
          if (!post) return { ok: false, status: 404 };
          const test = subjectTestOf(parsed.data, post.title);
          if (typeof test === 'string') return { ok: false, status: 400, message: test };
          const earlier = overlappingSends(await listSends(db, { contentId: id }), segment);
          if (earlier.length && !resend) return { ok: false, status: 409, message: RESEND_REFUSED };
          let queued: Awaited<ReturnType<typeof queueNewsletter>>;
          try {
            queued = await queueNewsletter(db, {
              contentId: id,
              segment,
              requestedBy: user.id,
              withPublication: mode === 'withPublication',
              ...(test && { test }),
            });
          } catch (error) {
            if (error instanceof NewsletterError)
              return {
                ok: false,
                status: error.status,
                message: error.message,
              };
            throw error;
          }
          await recordAudit(db, {
            actor: `user:${user.id}`,
            action: 'newsletter-sent',
            target: `send:${queued.sendId}`,
            ip,
            detail: {
              contentId: id,
              segment,
              mode,
              queued: queued.queued,
              resend: earlier.length > 0,
              ...(test && { subjects: test.subjects.length }),
            },
          });
          const to = `「${SEGMENT_LABELS[segment]}」`;
          return doneAnswer(
            mode === 'now'
              ? `${to}の ${formatNumber(queued.queued)} 人への配信を始めました。`
              : `${to}への配信を予約しました。記事の公開と同時に配信します。`,
            `${newsletterPaths.step(id)}#newsletter-sends`,
            { sendId: queued.sendId },
          );
        });
      },
    ),

    /**
     * POST /api/admin/newsletter/test: contentId, audience → the letter to the signed-in staff
     * member (audited by sendTestLetter).
     */
    test: staffEndpoint(
      options,
      { name: 'newsletter-test', formPage: newsletterPaths.sends },
      async ({ input, user }) => {
        const parsed = testSchema.safeParse(input);
        if (!parsed.success) return invalid(parsed.error);
        const db = await getDb();
        const post = await stepPost(db, parsed.data.contentId);
        if (!post) return { ok: false, status: 404 };
        const { audience } = parsed.data;
        if (!(await sendTestLetter(db, { contentId: post.id, audience, to: user })))
          return { ok: false, status: 400, message: 'この記事には送れる内容がまだありません。' };
        return doneAnswer(
          `テストメール（${AUDIENCE_LABELS[audience]}向け）を ${user.email} に送信しました。`,
          `${newsletterPaths.step(post.id)}?audience=${audience}#newsletter-test`,
        );
      },
    ),

    /** GET /api/admin/newsletter/sends/{id}: { status, counts, total } for the step's refresh. */
    status: (request: Request, sendId: string) =>
      staffEndpoint(
        options,
        { name: 'newsletter-status', method: 'GET', formPage: newsletterPaths.sends, json: true },
        async () => {
          if (!z.uuid().safeParse(sendId).success) return { ok: false, status: 404 };
          const db = await getDb();
          const send = await findSend(db, sendId);
          if (!send) return { ok: false, status: 404 };
          const counts = await newsletterSendStatus(db, sendId);
          return jsonAnswer(200, {
            status: send.status,
            counts,
            total: counts.queued + counts.sending + counts.sent + counts.failed + counts.uncertain,
          });
        },
      )(request),

    /** GET /api/admin/newsletter/preview/{contentId}?audience=free|paid: the letter's HTML. */
    preview: (request: Request, id: string) =>
      staffEndpoint(
        options,
        { name: 'newsletter-preview', method: 'GET', formPage: newsletterPaths.sends, json: true },
        async ({ input, user }) => {
          const parsed = previewSchema.safeParse(input);
          if (!parsed.success || !CONTENT_ID.test(id)) return invalid(parsed.error);
          const letter = await renderPreviewLetter(await getDb(), id, parsed.data.audience, user);
          if (!letter) return { ok: false, status: 404 };
          return new Response(letter.html, {
            status: 200,
            headers: {
              'content-type': 'text/html; charset=utf-8',
              'cache-control': 'private, no-store',
              'content-security-policy': PREVIEW_POLICY,
              'referrer-policy': 'no-referrer',
            },
          });
        },
      )(request),
  };
}

export const newsletterRoutes = newsletterHandlers();
