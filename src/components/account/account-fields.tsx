import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '@/lib/account-limits';
import { Checkbox, Field } from '@/components/forms/form.client';

/**
 * The fields several account forms share, with the same labels, hints, limits and browser
 * hints (autocomplete) everywhere. The rules themselves are the server's (validation.ts).
 */

export function EmailField({
  name = 'email',
  label = 'メールアドレス',
  defaultValue,
  hint,
}: {
  name?: string;
  label?: string;
  defaultValue?: string;
  hint?: string;
}) {
  return (
    <Field
      name={name}
      label={label}
      hint={hint}
      type="email"
      autoComplete="email"
      required
      maxLength={EMAIL_MAX}
      defaultValue={defaultValue}
    />
  );
}

/**
 * A new password, and its confirmation unless `confirm` is false. Signing up asks for it once:
 * a mistyped password there costs nothing, as the reader can sign in by a mailed link or reset
 * it, and the reader's path to paying types nothing twice.
 */
export function NewPasswordFields({
  label = 'パスワード',
  confirm = true,
}: {
  label?: string;
  confirm?: boolean;
}) {
  return (
    <>
      <Field
        name="password"
        label={label}
        hint={`${PASSWORD_MIN}〜${PASSWORD_MAX} 文字。メールアドレスや推測されやすいものは使えません。`}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
      />
      {confirm && (
        <Field
          name="passwordConfirm"
          label={`${label}（確認）`}
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
        />
      )}
    </>
  );
}

/** The current password, asked before a sensitive change or to sign in. */
export function CurrentPasswordField({
  label = 'パスワード',
  confirmsIdentity = false,
}: {
  label?: string;
  confirmsIdentity?: boolean;
}) {
  return (
    <Field
      name="password"
      label={label}
      hint={confirmsIdentity ? 'ご本人の確認のために入力してください。' : undefined}
      type="password"
      autoComplete="current-password"
      required
      maxLength={PASSWORD_MAX}
    />
  );
}

/** The required consent to the terms and the privacy policy (`consent`), after what else is agreed to. */
export function TermsConsent({
  defaultChecked,
  before,
}: {
  defaultChecked: boolean;
  before?: ReactNode;
}) {
  return (
    <Checkbox name="consent" defaultChecked={defaultChecked}>
      {before}
      <Link href="/terms" target="_blank">
        利用規約
      </Link>
      と
      <Link href="/terms#privacy" target="_blank">
        プライバシーポリシー
      </Link>
      に同意します（必須）
    </Checkbox>
  );
}
