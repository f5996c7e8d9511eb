import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { EmailField } from '@/components/account/account-fields';
import { AccountPage, Notice } from '@/components/account/account-page';
import { Field, PostForm } from '@/components/forms/form.client';
import type { SearchParams } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { INQUIRY_COMPANY_MAX, INQUIRY_NAME_MAX, INQUIRY_PHONE_MAX } from '@/lib/inquiries';
import { getDb } from '@/server/platform/db/client';
import { readFlash, typedText } from '@/server/platform/http/read-flash';
import { getUser } from '@/server/features/identity/session';
import { getProfileDetails } from '@/server/features/profiles/profiles';

/**
 * The inquiry pages (/contact, /jobs/about/contact, /biz/request) are one page: the form with
 * its lead and privacy note, the 「受け付けました」 screen after a valid post, and the sender's
 * company, name, e-mail and phone, filled in from the account when the sender is signed in.
 */

export type InquiryDefaults = Awaited<ReturnType<typeof inquiryDefaults>>;

type InquiryPageProps = {
  title: string;
  lead: ReactNode;
  /** The route the form posts to. */
  action: string;
  submitLabel: string;
  /** The screen after a valid post: its title, what was received, then where to go on. */
  sent: { title: string; notice: string; next: ReactNode };
  /** The form's fields, filled in from what was typed or from the account. */
  fields: (defaults: InquiryDefaults) => ReactNode;
};

/**
 * An inquiry page's route module from one description: its metadata (the page's title, a
 * description, its path) and the page.
 */
export function inquiryRoute({
  description,
  path,
  ...page
}: InquiryPageProps & { description: string; path: string }) {
  function Page({ searchParams }: { searchParams: SearchParams }) {
    return <InquiryPage searchParams={searchParams} {...page} />;
  }
  return { metadata: sitePageMetadata({ title: page.title, description, path }), Page };
}

/** An inquiry page: the form, or after a valid post (`?sent=1`) what was received. */
export async function InquiryPage({
  searchParams,
  title,
  lead,
  action,
  submitLabel,
  sent,
  fields,
}: InquiryPageProps & { searchParams: SearchParams }) {
  const query = await searchParams;
  if (query.sent) {
    return (
      <SentScreen title={sent.title} notice={sent.notice}>
        {sent.next}
      </SentScreen>
    );
  }
  const defaults = await inquiryDefaults();
  return (
    <AccountPage title={title} lead={lead} footer={<PrivacyNote />}>
      <PostForm action={action} submitLabel={submitLabel} initialErrors={defaults.flash}>
        {fields(defaults)}
      </PostForm>
    </AccountPage>
  );
}

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
  defaults: InquiryDefaults;
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
