import { Link } from '@/components/layout/site-link';
import { EmailField, TermsConsent } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import type { Flash } from '@/lib/http/flash';
import { typedIn } from '@/lib/http/form-flash';

export const GUEST_CHECKOUT_ENDPOINT = '/api/billing/guest-checkout';
export const GUEST_CHECKOUT_LABEL = '同意してカード情報の入力へ';

/**
 * A visitor's part of the final confirmation screen (docs/decisions/039-reader-path.md): the
 * e-mail address the account is made with, the consent, and one button to the card form. A
 * plain form post (it works without JavaScript) to the guest checkout; a password is not asked
 * here (it can be set on the account page later).
 */
export function GuestCheckoutForm({
  plan,
  next,
  offer,
  flash,
  loginHref,
}: {
  plan: string;
  /** A safe local path to return to ('/' is left out). */
  next: string;
  offer?: string;
  /** A refused plain post's one-time message, with what was typed. */
  flash: Flash | null;
  /** The login page, coming back to this screen. */
  loginHref: string;
}) {
  return (
    <>
      <PostForm
        action={GUEST_CHECKOUT_ENDPOINT}
        submitLabel={GUEST_CHECKOUT_LABEL}
        initialErrors={flash}
      >
        <input type="hidden" name="plan" value={plan} />
        {next === '/' ? null : <input type="hidden" name="next" value={next} />}
        {offer ? <input type="hidden" name="offer" value={offer} /> : null}
        <EmailField
          defaultValue={typedIn(flash, 'email')}
          hint="このアドレスでアカウントを作成し、お支払いの後に確認のメールをお送りします。"
        />
        <TermsConsent
          defaultChecked={typedIn(flash, 'consent') === 'on'}
          before="上記のお申し込み内容、"
        />
      </PostForm>
      <p>
        すでにアカウントをお持ちの方は <Link href={loginHref}>ログイン</Link>
      </p>
    </>
  );
}
