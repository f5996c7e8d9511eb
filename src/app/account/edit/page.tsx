import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import {
  PostForm,
  Checkbox,
  CheckboxGroup,
  Field,
  SelectField,
} from '@/components/forms/form.client';
import { AccountPage, Notice, Section } from '@/components/account/account-page';
import { AvatarField } from '@/components/account/avatar-field.client';
import { accountMetadata } from '@/components/account/metadata';
import { PlanSummary } from '@/components/account/plan-summary';
import { toCurrentPlanView } from '@/components/billing/views';
import { billingSummaryFor } from '@/server/features/billing/reader-billing';
import { getDb } from '@/server/platform/db/client';
import { readFlash, typedText } from '@/server/platform/http/read-flash';
import { requireUser } from '@/server/features/identity/session';
import { COMPANY_MAX, DISPLAY_NAME_MAX } from '@/lib/account-limits';
import { INTERESTS, OCCUPATIONS } from '@/server/features/identity/validation';
import { AVATAR_MAX_BYTES } from '@/server/features/account/profile-flow';
import { getProfileDetails } from '@/server/features/profiles/profiles';
import { getPartner, partnerDeps } from '@/server/features/partners/partners';
import styles from '@/components/account/account-page.module.css';
import partnerStyles from '@/components/biz/partner-admin/partner-admin.module.css';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('アカウント設定', '/account/edit');

export default async function EditAccountPage({ searchParams }: SearchParamsProps) {
  const user = await requireUser('/account/edit');
  const query = await searchParams;
  const db = await getDb();
  const [profile, billing, flash] = await Promise.all([
    getProfileDetails(db, user.id),
    // The plan line is a courtesy here: the profile form never depends on the billing records.
    billingSummaryFor(db, user.id).catch(() => null),
    readFlash(),
  ]);
  const typed = (name: string) => typedText(flash, name);
  const interests = Array.isArray(flash?.values.interests)
    ? flash.values.interests
    : (profile?.interests ?? []);
  const plan = billing?.current ? toCurrentPlanView(billing.current) : null;
  // A partner's member finds the dashboard here; the name is a courtesy (the link works without).
  const partnerId = profile?.partnerId ?? '';
  const partner = partnerId
    ? await getPartner(await partnerDeps(), partnerId).catch(() => null)
    : null;
  return (
    <AccountPage
      title="アカウント設定"
      footer={
        <>
          <Link href="/account/change-email">メールアドレスを変更する</Link>
          <Link href="/account/forgot-password">パスワードを再設定する</Link>
          <Link href="/account/delete">退会する</Link>
        </>
      }
    >
      {query.saved ? (
        <Notice>
          <p>プロフィールを保存しました。</p>
        </Notice>
      ) : null}
      {query.email === 'changed' ? (
        <Notice>
          <p>メールアドレスを変更しました。</p>
        </Notice>
      ) : null}
      <dl className={styles.lead}>
        <dt>メールアドレス</dt>
        <dd>{user.email}</dd>
        <dt>ご利用中のプラン</dt>
        <dd>
          <PlanSummary plan={plan} loaded={billing !== null} />
          <br />
          <Link href="/service-plans" prefetch={false}>
            プランの管理・変更
          </Link>
          {' ・ '}
          <Link href="/account/receipts" prefetch={false}>
            領収書
          </Link>
        </dd>
      </dl>
      {partnerId ? (
        <Section title="パートナー企業">
          <p className={partnerStyles.accountLink}>
            <Link href={`/biz/partner-admin/${encodeURIComponent(partnerId)}`} prefetch={false}>
              {partner ? `${partner.name} の管理画面` : 'パートナー企業の管理画面'}
            </Link>
          </p>
        </Section>
      ) : null}
      <Section title="プロフィール">
        <PostForm
          action="/api/account/edit-profile"
          submitLabel="保存する"
          initialErrors={flash}
          multipart
        >
          <AvatarField
            currentUrl={profile?.avatarUrl ?? null}
            displayName={profile?.displayName ?? user.name}
            maxBytes={AVATAR_MAX_BYTES}
          />
          <Field
            name="displayName"
            label="表示名"
            required
            maxLength={DISPLAY_NAME_MAX}
            autoComplete="nickname"
            defaultValue={typed('displayName') ?? profile?.displayName ?? user.name}
          />
          <SelectField
            name="occupation"
            label="職種"
            placeholder="選択してください"
            options={OCCUPATIONS}
            defaultValue={typed('occupation') ?? profile?.occupation ?? ''}
          />
          <Field
            name="company"
            label="会社名・所属"
            maxLength={COMPANY_MAX}
            autoComplete="organization"
            defaultValue={typed('company') ?? profile?.company ?? ''}
          />
          <CheckboxGroup
            name="interests"
            legend="関心のある分野"
            options={INTERESTS}
            defaultValues={interests}
          />
          <Checkbox
            name="newsletter"
            defaultChecked={flash ? typed('newsletter') === 'on' : (profile?.newsletter ?? false)}
          >
            ニュースレター（新着記事やイベントのお知らせ）を受け取る
          </Checkbox>
        </PostForm>
      </Section>
    </AccountPage>
  );
}
