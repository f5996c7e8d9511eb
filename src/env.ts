import { z } from 'zod';
import { OperatorError } from '@/lib/errors';
import { singleton } from '@/lib/singleton';

/**
 * The only reader of process.env. Every setting is validated once; a bad value stops the
 * start with a message naming the variable. Empty strings count as "not set".
 */

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A switch: on only when the value is exactly the text "true", off when unset or anything else. */
const trueFlag = z
  .string()
  .optional()
  .transform((v) => v === 'true');

const optionalEmail = optionalText.pipe(
  z.email({ error: 'メールアドレスを指定してください' }).max(254).optional(),
);

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce
      .number({ error: '数値で指定してください' })
      .int('整数で指定してください')
      .min(1, '1 以上で指定してください')
      .max(65535, '65535 以下で指定してください')
      .default(3000),
    SITE_URL: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'http:// または https:// で始まる URL を指定してください',
        })
        .optional(),
    ),
    SITE_NAME: optionalText.pipe(
      z.string().max(60, '60 文字以内で指定してください').default('AXIS Membership'),
    ),
    DATA_DIR: optionalText.pipe(z.string().default('./.data')),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\/\S+$/, 'postgres:// で始まる接続文字列を指定してください')
        .optional(),
    ),
    // SPEC §2: the redirect is on only when the value is exactly the text "true".
    AUTH_CHECK_REDIRECT: trueFlag,
    GTM_ID: optionalText.pipe(
      z
        .string()
        .regex(/^GTM-[A-Z0-9]{4,12}$/, 'GTM-XXXXXXX の形式で指定してください')
        .optional(),
    ),
    // A hosted microCMS (or another instance of this service) instead of the built-in one.
    CMS_BASE_URL: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error:
            'http:// または https:// で始まる URL を指定してください (例: https://xxx.microcms.io/api/v1)',
        })
        .optional(),
    ),
    CMS_API_KEY: optionalText.pipe(z.string().max(200).optional()),
    // A key of that service with POST/PUT/PATCH, for what the app itself writes there (partners'
    // approved job listings and profiles). Unset: those writes are refused with a clear message.
    CMS_WRITE_API_KEY: optionalText.pipe(z.string().max(200).optional()),
    // Signing secret (signed media URLs). Required when more than one app instance runs.
    APP_SECRET: optionalText.pipe(z.string().min(32, '32 文字以上で指定してください').optional()),
    // S3-compatible storage for uploads; unset = DATA_DIR/uploads. Endpoint, bucket and both keys together.
    S3_ENDPOINT: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'http:// または https:// で始まる URL を指定してください',
        })
        .optional(),
    ),
    S3_BUCKET: optionalText.pipe(z.string().max(63).optional()),
    S3_REGION: optionalText.pipe(z.string().max(40).optional()),
    S3_ACCESS_KEY_ID: optionalText.pipe(z.string().max(200).optional()),
    S3_SECRET_ACCESS_KEY: optionalText.pipe(z.string().max(200).optional()),
    // Mail: an SMTP server (smtp:// or smtps://user:pass@host:port); unset = the outbox table,
    // read by staff at /admin/mail.
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/\S+$/, 'smtp:// または smtps:// で始まる URL を指定してください')
        .optional(),
    ),
    // The sender of every mail; default "{SITE_NAME} <no-reply@{SITE_URL's host}>".
    MAIL_FROM: optionalText.pipe(z.string().max(200).optional()),
    // Newsletter letters each instance hands to the mail server per second (src/server/features/newsletter/
    // delivery.ts): keep the sum over instances within what the SMTP provider allows.
    NEWSLETTER_RATE_PER_SECOND: z.coerce.number().min(0.1).max(10_000).default(10),
    // The address newsletter bounces go to, e.g. bounces@example.jp: each letter's envelope
    // sender is then bounces+<letter id>@example.jp (docs/operations.md). Unset: MAIL_FROM's.
    NEWSLETTER_BOUNCE_ADDRESS: optionalEmail,
    // Where messages from the contact form are mailed (they are also kept in the database).
    CONTACT_TO: optionalEmail,
    // "true" behind a reverse proxy: the client address is the last X-Forwarded-For entry.
    TRUST_PROXY: trueFlag,
    // The front server's cache of the pages rendered for anonymous readers (off: every page renders).
    PAGE_CACHE: z.enum(['on', 'off']).default('on'),
    // Gift links a paid reader may make per calendar month in Japan time
    // (docs/decisions/037-gift-articles.md).
    GIFT_MONTHLY_LIMIT: z.coerce.number().int().min(0).max(1_000).default(5),
    // Members' posts a signed-in free member reads in full per calendar month in Japan time
    // before the paywall (docs/decisions/055-metered-wall.md): the start-up default of the
    // console's setting; 0 turns the metered wall off.
    METERED_READS_PER_MONTH: z.coerce.number().int().min(0).max(100).default(0),
    // The content API's caches of published answers and counts (off: every read hits the database).
    CMS_API_CACHE: z.enum(['on', 'off']).default('on'),
    // Requests per second per API key on the built-in content API.
    CMS_RATE_LIMIT_READ: z.coerce.number().int().min(1).max(1_000_000).default(100),
    CMS_RATE_LIMIT_WRITE: z.coerce.number().int().min(1).max(1_000_000).default(10),
    // Sign-ins allowed per client address in 10 minutes (src/server/features/account/account-flows.ts).
    SIGN_IN_RATE_LIMIT_IP: z.coerce.number().int().min(1).max(1_000_000).default(100),
    // Sign-in with LINE and Google (src/server/features/identity/oidc-providers.ts): each appears on /login
    // only when both of its values are set. LINE: the LINE Login channel's ID and secret.
    LINE_CHANNEL_ID: optionalText.pipe(
      z
        .string()
        .regex(/^\d{6,20}$/, 'LINE Login チャネルのチャネル ID（数字）を指定してください')
        .optional(),
    ),
    LINE_CHANNEL_SECRET: optionalText.pipe(z.string().min(16).max(200).optional()),
    GOOGLE_CLIENT_ID: optionalText.pipe(
      z
        .string()
        .regex(
          /^\S+\.apps\.googleusercontent\.com$/,
          'Google の OAuth クライアント ID（….apps.googleusercontent.com）を指定してください',
        )
        .optional(),
    ),
    GOOGLE_CLIENT_SECRET: optionalText.pipe(z.string().min(10).max(200).optional()),
    // What an import or restore archive may unpack to, in MB (src/server/platform/archive/limits.ts).
    ARCHIVE_MAX_TOTAL_MB: z.coerce.number().int().min(1).max(10_000_000).default(10_240),
    ARCHIVE_MAX_FILE_MB: z.coerce.number().int().min(1).max(10_000_000).default(2_048),
    // The production server's log (src/server/platform/logging): JSON lines (default) or plain text.
    LOG_FORMAT: z.enum(['json', 'text']).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    // A bearer token for GET /api/metrics (Prometheus); staff can read it signed in without one.
    METRICS_TOKEN: optionalText.pipe(z.string().min(32).max(200).optional()),
    // Billing (src/server/features/billing): Stripe with a secret key, else the built-in sandbox.
    STRIPE_SECRET_KEY: optionalText.pipe(
      z
        .string()
        .regex(
          /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
          'sk_live_… または sk_test_… の形式で指定してください',
        )
        .optional(),
    ),
    // Another Stripe-compatible API (stripe-mock, a sandbox of another instance): its base URL.
    STRIPE_API_URL: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'http:// または https:// で始まる URL を指定してください',
        })
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: optionalText.pipe(
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9]+$/, 'whsec_… の形式で指定してください')
        .optional(),
    ),
    // The plans' prices on Stripe: a lookup key or a price id (price_…).
    STRIPE_PRICE_MONTHLY: optionalText.pipe(z.string().max(200).default('membership_monthly')),
    STRIPE_PRICE_YEARLY: optionalText.pipe(z.string().max(200).default('membership_yearly')),
    // "true": run on the sandbox even with DATABASE_URL (a staging server that takes no money).
    BILLING_SANDBOX: trueFlag,
    // Free days before the first charge, for readers who never had a plan (0: no trial).
    BILLING_TRIAL_DAYS: z.coerce.number().int().min(0).max(90).default(14),
    // 請求書払い: days after an unpaid invoice's due date before the organisation's seats are
    // suspended (its admins are warned from the due date on; docs/decisions/059-invoice-billing.md).
    INVOICE_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(14),
    // Qualified-invoice issuer (適格請求書発行事業者): printed on receipts when set.
    INVOICE_REGISTRATION_NUMBER: optionalText.pipe(
      z
        .string()
        .regex(/^T\d{13}$/, 'T に続く 13 桁の数字で指定してください')
        .optional(),
    ),
    INVOICE_ISSUER_NAME: optionalText.pipe(z.string().max(100).optional()),
    // The operator named on the 特定商取引法 page (src/server/features/operator): demo values on the
    // embedded database; with DATABASE_URL the start is refused until they are set.
    OPERATOR_NAME: optionalText.pipe(
      z.string().max(100, '100 文字以内で指定してください').optional(),
    ),
    OPERATOR_REPRESENTATIVE: optionalText.pipe(
      z.string().max(100, '100 文字以内で指定してください').optional(),
    ),
    OPERATOR_ADDRESS: optionalText.pipe(
      z.string().max(200, '200 文字以内で指定してください').optional(),
    ),
    OPERATOR_PHONE: optionalText.pipe(
      z
        .string()
        .regex(
          /^\+?[0-9]+(?:[- ][0-9]+)*$/,
          '電話番号を数字とハイフンで指定してください (例: 03-1234-5678)',
        )
        .refine((v) => /^[0-9]{10,15}$/.test(v.replace(/[^0-9]/g, '')), {
          error: '電話番号は 10〜15 桁で指定してください',
        })
        .optional(),
    ),
    OPERATOR_EMAIL: optionalEmail,
    // "true": the address and phone number are disclosed on request instead of shown (特定商取引法
    // 第11条 allows it when the page says so and requests are answered without delay).
    OPERATOR_DISCLOSE_ON_REQUEST: trueFlag,
  })
  .superRefine((env, ctx) => {
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'STRIPE_SECRET_KEY を使うときは Webhook の署名シークレットも指定してください',
      });
    }
    for (const [id, secret, name] of [
      ['LINE_CHANNEL_ID', 'LINE_CHANNEL_SECRET', 'LINE'],
      ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'Google'],
    ] as const) {
      if (!env[id] !== !env[secret])
        ctx.addIssue({
          code: 'custom',
          path: [env[id] ? secret : id],
          message: `${name} でのログインには ${id} と ${secret} の両方を指定してください`,
        });
    }
    if (env.CMS_BASE_URL && !env.CMS_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['CMS_API_KEY'],
        message: 'CMS_BASE_URL を使うときは API キーも指定してください',
      });
    }
  })
  .transform((env) => ({
    ...env,
    SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    CMS_BASE_URL: env.CMS_BASE_URL?.replace(/\/+$/, ''),
  }));

export type Env = z.output<typeof envSchema>;

export class EnvError extends OperatorError {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      '環境変数の設定に誤りがあります (invalid environment):\n' +
        issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n'),
    );
    this.name = 'EnvError';
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(unknown)'),
        message: issue.message,
      })),
    );
  }
  return result.data;
}

const parsed = singleton<{ settings?: Env }>('env', () => ({}));

export function env(): Env {
  parsed.settings ??= parseEnv(process.env);
  return parsed.settings;
}
