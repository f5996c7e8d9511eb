import { EmailField, NewPasswordFields, TermsConsent } from '@/components/account/account-fields';
import { Checkbox, Field, PostForm } from '@/components/forms/form.client';
import { DISPLAY_NAME_MAX } from '@/lib/account-limits';
import type { Flash } from '@/lib/http/flash';

/**
 * The account fields (display name, e-mail, password, consents), posted to the sign-up flow.
 * Used by /sign-up and by the final confirmation screen, where a visitor creates the account and
 * applies for the plan with one button (`plan` then names it; the mail's link starts its checkout).
 */
export function SignUpForm({
  flash,
  next,
  plan,
  offer,
  submitLabel = '登録する',
}: {
  /** A refused plain post's one-time message, with what was typed. */
  flash: Flash | null;
  /** A safe local path to return to ('/' is left out). */
  next: string;
  plan?: string;
  /** With `plan`: the offer's code the reader confirmed. */
  offer?: string;
  submitLabel?: string;
}) {
  const value = (name: string) => {
    const typed = flash?.values[name];
    return typeof typed === 'string' ? typed : undefined;
  };
  return (
    <PostForm action="/api/account/sign-up" submitLabel={submitLabel} initialErrors={flash}>
      {next === '/' ? null : <input type="hidden" name="next" value={next} />}
      {plan ? <input type="hidden" name="plan" value={plan} /> : null}
      {plan && offer ? <input type="hidden" name="offer" value={offer} /> : null}
      <Field
        name="displayName"
        label="表示名"
        // Where the name shows: the header's account menu, the account settings and the
        // greeting of our mails and receipts (account-menu.client.tsx, src/server/platform/mail).
        hint={`${DISPLAY_NAME_MAX} 文字以内。ログイン中の画面上部のアカウントメニューと、メールや領収書の宛名に使います。`}
        autoComplete="nickname"
        required
        maxLength={DISPLAY_NAME_MAX}
        defaultValue={value('displayName')}
      />
      <EmailField defaultValue={value('email')} />
      <NewPasswordFields confirm={false} />
      <TermsConsent defaultChecked={value('consent') === 'on'} />
      <Checkbox name="newsletter" defaultChecked={value('newsletter') === 'on'}>
        ニュースレター（新着記事やイベントのお知らせ）を受け取る
      </Checkbox>
    </PostForm>
  );
}
