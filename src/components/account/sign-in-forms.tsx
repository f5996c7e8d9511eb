import { CurrentPasswordField, EmailField } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import type { Flash } from '@/lib/http/flash';
import { typedIn } from '@/lib/http/form-flash';

/**
 * The two ways to sign in with an address, posted to the account flows: the password, and a
 * mailed sign-in link (docs/decisions/020-sign-in-without-password.md). Used by /login and by
 * the success page of a checkout paid with an address that has an account. Each form takes only
 * its own one-time message: the link form's carries `form=sign-in-link`.
 */

const LINK_FORM = 'sign-in-link';

/** Whether a refused post's message belongs to the link form. */
export const fromLinkForm = (flash: Flash | null) => typedIn(flash, 'form') === LINK_FORM;

export function PasswordSignInForm({
  next,
  flash,
  submitLabel = 'ログイン',
}: {
  next: string;
  flash: Flash | null;
  submitLabel?: string;
}) {
  const own = fromLinkForm(flash) ? null : flash;
  return (
    <PostForm
      action="/api/account/sign-in"
      submitLabel={submitLabel}
      initialErrors={own}
      changesLogin
    >
      <input type="hidden" name="next" value={next} />
      <EmailField defaultValue={typedIn(own, 'email')} />
      <CurrentPasswordField />
    </PostForm>
  );
}

export function SignInLinkForm({
  next,
  flash,
  submitLabel = 'ログイン用のリンクを送る',
}: {
  next: string;
  flash: Flash | null;
  submitLabel?: string;
}) {
  const own = fromLinkForm(flash) ? flash : null;
  return (
    <PostForm
      action="/api/account/sign-in-link"
      submitLabel={submitLabel}
      submitColor="white"
      initialErrors={own}
    >
      <input type="hidden" name="form" value={LINK_FORM} />
      <input type="hidden" name="next" value={next} />
      <EmailField defaultValue={typedIn(own, 'email')} />
    </PostForm>
  );
}
