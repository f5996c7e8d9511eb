import 'server-only';
import { z } from '@/lib/zod';
import {
  COMPANY_MAX,
  DISPLAY_NAME_MAX,
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from '@/lib/account-limits';
import { env } from '@/env';
import { MIN_PASSWORD_SCORE, estimatePassword, personalWords } from './password-strength';
import { PLAN_KEYS } from '@/lib/billing/plans';
import { offerCodeSchema } from '@/lib/billing/offer-code';

/**
 * The account forms' rules (docs/decisions/000-design-baseline.md "Validation"), with the Japanese
 * message shown beside each field. Every text has a maximum length; nothing here trusts the
 * browser's checks.
 */

export { DISPLAY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN };

/**
 * The display name of an account made from an address alone (the footer's newsletter, a paid
 * guest checkout): the part before the @, which the reader can change on their profile.
 */
export const nameFromAddress = (email: string) =>
  email.split('@')[0]!.slice(0, DISPLAY_NAME_MAX) || '読者';

/** RFC 5321: 64 octets for the local part, 254 for the whole path. */
export const emailField = z
  .string({ error: 'メールアドレスを入力してください。' })
  .trim()
  .toLowerCase()
  .min(1, 'メールアドレスを入力してください。')
  .max(EMAIL_MAX, 'メールアドレスが長すぎます。')
  .pipe(z.email({ error: 'メールアドレスの形式が正しくありません。' }))
  .refine((email) => (email.split('@')[0] ?? '').length <= 64, {
    error: 'メールアドレスの形式が正しくありません。',
  });

const passwordText = z
  .string({ error: 'パスワードを入力してください。' })
  .min(1, 'パスワードを入力してください。');

export const WEAK_PASSWORD_MESSAGE = 'このパスワードは推測されやすいため使えません。';
const WEAK_PASSWORD_HINT = 'いくつかの単語を組み合わせた、長めのパスワードにしてください。';

/** The quick rules of a new password: its length, and not the e-mail address itself. */
export function passwordShapeProblem(password: string, email: string | null): string | null {
  if (password.length < PASSWORD_MIN)
    return `パスワードは ${PASSWORD_MIN} 文字以上にしてください。`;
  if (password.length > PASSWORD_MAX)
    return `パスワードは ${PASSWORD_MAX} 文字以内にしてください。`;
  const lower = password.toLowerCase();
  if (email && (lower === email.toLowerCase() || lower === email.split('@')[0]?.toLowerCase()))
    return 'メールアドレスと同じパスワードは使えません。';
  return null;
}

/**
 * A new password: the quick rules, then zxcvbn's estimate against its dictionaries and the
 * person's own words (address, name, the site). The message says why, in zxcvbn's Japanese.
 * Costs milliseconds to a tenth of a second: call it after the rate limit.
 */
export function passwordProblem(
  password: string,
  email: string | null,
  name?: string | null,
): string | null {
  const shape = passwordShapeProblem(password, email);
  if (shape) return shape;
  const { SITE_NAME, SITE_URL } = env();
  const result = estimatePassword(
    password,
    personalWords([email, name, SITE_NAME, new URL(SITE_URL).hostname]),
  );
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  const advice = [warning, ...suggestions].filter((text): text is string => !!text);
  if (suggestions.length === 0) advice.push(WEAK_PASSWORD_HINT);
  return WEAK_PASSWORD_MESSAGE + advice.map((text) => `${text.replace(/[。.]$/, '')}。`).join('');
}

const displayName = z
  .string({ error: '表示名を入力してください。' })
  .trim()
  .min(1, '表示名を入力してください。')
  .max(DISPLAY_NAME_MAX, `表示名は ${DISPLAY_NAME_MAX} 文字以内にしてください。`)
  // Also for callers outside HTTP (the admin CLI): PostgreSQL cannot store a NUL.
  .refine((v) => !/\p{Cc}/u.test(v), { error: '表示名に使えない文字が含まれています。' });

const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'on' || v === 'true');

const confirmMatches = (
  data: { password: string; passwordConfirm?: string },
  ctx: z.RefinementCtx,
) => {
  if (data.passwordConfirm !== undefined && data.password !== data.passwordConfirm)
    ctx.addIssue({
      code: 'custom',
      path: ['passwordConfirm'],
      message: '確認用のパスワードが一致しません。',
    });
};

export const signUpInput = z
  .object({
    email: emailField,
    password: passwordText.max(1000, `パスワードは ${PASSWORD_MAX} 文字以内にしてください。`),
    // The sign-up form asks for the password once; a client that sends a confirmation has it checked.
    passwordConfirm: z.string().optional(),
    displayName,
    consent: checkbox,
    newsletter: checkbox,
    // The page to return to after verifying; a bad one only sends the reader home.
    next: z.string().optional().catch(undefined),
    // Signed up on the final confirmation screen: the plan whose checkout the mail's link starts.
    // Anything but a catalogue key is dropped (the reader then lands on `next`).
    plan: z.enum(PLAN_KEYS).optional().catch(undefined),
    // With the plan, an offer's code the reader confirmed (checked again at checkout).
    offer: offerCodeSchema.optional().catch(undefined),
  })
  .superRefine((data, ctx) => {
    // The strength estimate comes after the rate limit (account-flows.ts signUp).
    const problem = passwordShapeProblem(data.password, data.email);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    confirmMatches(data, ctx);
    if (!data.consent)
      ctx.addIssue({
        code: 'custom',
        path: ['consent'],
        message: '利用規約とプライバシーポリシーへの同意が必要です。',
      });
  });

export const signInInput = z.object({
  email: emailField,
  password: passwordText.max(1000, 'メールアドレスまたはパスワードが正しくありません。'),
  // Whatever it holds, a bad `next` only sends the reader home (safeNextPath).
  next: z.string().optional().catch(undefined),
});

export const forgotPasswordInput = z.object({ email: emailField });

export const resetPasswordInput = z
  .object({
    token: z
      .string({ error: 'リンクが正しくありません。' })
      .min(1, 'リンクが正しくありません。')
      .max(200),
    password: passwordText.max(1000, `パスワードは ${PASSWORD_MAX} 文字以内にしてください。`),
    passwordConfirm: z.string().default(''),
  })
  .superRefine(confirmMatches);

/** A first password, for an account that has none (made from an address: a paid checkout). */
export const setPasswordInput = z
  .object({
    password: passwordText.max(1000, `パスワードは ${PASSWORD_MAX} 文字以内にしてください。`),
    passwordConfirm: z.string().default(''),
  })
  .superRefine(confirmMatches);

export const changeEmailInput = z.object({
  newEmail: emailField,
  password: passwordText.max(1000, 'パスワードが正しくありません。'),
});

/** The interests a design reader picks from on /account/edit. */
export const INTERESTS = [
  'グラフィック',
  'プロダクト',
  '建築・インテリア',
  'UI・UX',
  'ブランディング',
  'ファッション',
  '工芸・クラフト',
  '写真・映像',
  'サステナビリティ',
  'テクノロジー',
] as const;

export const OCCUPATIONS = [
  'デザイナー',
  'アートディレクター・クリエイティブディレクター',
  '建築家・インテリアデザイナー',
  'エンジニア',
  '編集者・ライター',
  'マーケティング・広報',
  '経営・事業企画',
  '学生',
  'その他',
] as const;

export const profileInput = z.object({
  displayName,
  occupation: z
    .string()
    .default('')
    .refine((v) => v === '' || (OCCUPATIONS as readonly string[]).includes(v), {
      error: '職種を一覧から選んでください。',
    }),
  company: z
    .string()
    .trim()
    .max(COMPANY_MAX, `会社名・所属は ${COMPANY_MAX} 文字以内にしてください。`)
    .default(''),
  interests: z
    .array(z.enum(INTERESTS, { error: '関心のある分野を一覧から選んでください。' }))
    .max(INTERESTS.length)
    .default([]),
  newsletter: checkbox,
});

export const deleteAccountInput = z.object({
  password: passwordText.max(1000, 'パスワードが正しくありません。'),
  confirm: checkbox.refine((v) => v, { error: '内容を確認し、チェックを入れてください。' }),
});
