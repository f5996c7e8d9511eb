import Link from 'next/link';
import type { ReactNode } from 'react';
import { EmailField } from '@/components/account/account-fields';
import { AccountPage, Notice } from '@/components/account/account-page';
import { Field } from '@/components/forms/form.client';
import { INQUIRY_COMPANY_MAX, INQUIRY_NAME_MAX, INQUIRY_PHONE_MAX } from '@/lib/inquiries';
import { getDb } from '@/server/db/client';
import { readFlash, typedText } from '@/server/http/read-flash';
import { getUser } from '@/server/identity/session';
import { getProfileDetails } from '@/server/profiles/profiles';

/**
 * What the companies' inquiry forms (/jobs/about/contact, /biz/request) share with each other
 * and with /contact: the 「受け付けました」 screen, the privacy note, and the sender's company,
 * name, e-mail and phone, filled in from the account when the sender is signed in.
 */

/** The screen after a valid post (`?sent=1`): what was received, then where to go on. */
export function SentScreen({
  title,
  notice,
  children,
}: {
  title: string;
  notice: string;
  children: ReactNode;
}) {
  return (
    <AccountPage title={title}>
      <Notice>
        <p>{notice}</p>
      </Notice>
      <p>
        お返事まで数営業日いただくことがあります。受付確認のメールが届かない場合は、迷惑メールフォルダもご確認ください。
      </p>
      {children}
    </AccountPage>
  );
}

export const PrivacyNote = () => (
  <p>
    ご入力いただいた個人情報の取扱いについては、
    <Link href="/terms#privacy">利用規約の「個人情報の取扱い」</Link>
    をご覧ください。
  </p>
);

/** The flash of a post that came back, and what the account says; what was typed wins. */
export async function inquiryDefaults() {
  const [flash, user] = await Promise.all([readFlash(), getUser()]);
  const profile = user ? await getProfileDetails(await getDb(), user.id) : null;
  const typed = (name: string) => typedText(flash, name);
  return {
    flash,
    typed,
    company: typed('company') ?? (profile?.company || undefined),
    name: typed('name') ?? profile?.displayName ?? user?.name,
    email: typed('email') ?? user?.email,
  };
}

export function SenderFields({
  defaults,
  nameLabel,
  phoneRequired,
}: {
  defaults: Awaited<ReturnType<typeof inquiryDefaults>>;
  nameLabel: string;
  phoneRequired: boolean;
}) {
  return (
    <>
      <Field
        name="company"
        label="会社名"
        autoComplete="organization"
        required
        maxLength={INQUIRY_COMPANY_MAX}
        defaultValue={defaults.company}
      />
      <Field
        name="name"
        label={nameLabel}
        autoComplete="name"
        required
        maxLength={INQUIRY_NAME_MAX}
        defaultValue={defaults.name}
      />
      <EmailField defaultValue={defaults.email} />
      <Field
        name="phone"
        label={phoneRequired ? '電話番号' : '電話番号（任意）'}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        hint="半角数字とハイフンで入力してください（例：03-1234-5678）"
        required={phoneRequired}
        maxLength={INQUIRY_PHONE_MAX}
        defaultValue={defaults.typed('phone')}
      />
    </>
  );
}
