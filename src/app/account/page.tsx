import Link from 'next/link';
import { AccountPage, Section } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { SignOutButton } from '@/components/account/sign-out-button.client';
import { planRenewalLine, planStatusLabel } from '@/components/billing/billing-format';
import { toCurrentPlanView } from '@/components/billing/views';
import { billingSummaryFor } from '@/server/billing/reader-billing';
import { getDb } from '@/server/db/client';
import { requireUser } from '@/server/identity/session';
import { getProfileDetails } from '@/server/profiles/profiles';
import styles from '@/components/account/account-page.module.css';

export const metadata = accountMetadata('アカウント', '/account');

/**
 * The account hub (note's and Ghost's "account" page): who is signed in, their plan, and one
 * link to each thing a reader manages — profile and e-mail settings, plan and billing,
 * receipts, bookmarks — and sign-out. Signed-out visitors go to the login page and come back.
 * Plain links and a form: it works without JavaScript. The one action button is ログアウト, in
 * the secondary colour: the hub has no primary step.
 */
export default async function AccountHubPage() {
  const user = await requireUser('/account');
  const db = await getDb();
  const [profile, billing] = await Promise.all([
    getProfileDetails(db, user.id),
    // The hub stays usable when billing records cannot be read; it says so in the plan line.
    billingSummaryFor(db, user.id).catch(() => null),
  ]);
  const plan = billing?.current ? toCurrentPlanView(billing.current) : null;
  const renewal = plan ? planRenewalLine(plan) : null;
  const partnerId = profile?.partnerId ?? '';
  return (
    <AccountPage title="アカウント">
      <dl className={styles.lead}>
        <dt>お名前（表示名）</dt>
        <dd>{profile?.displayName ?? user.name}</dd>
        <dt>メールアドレス</dt>
        <dd>{user.email}</dd>
        <dt>ご利用中のプラン</dt>
        <dd>
          {plan ? (
            <>
              {plan.planName || '有料プラン'}（{planStatusLabel(plan)}）
              {renewal ? (
                <>
                  <br />
                  {renewal}
                </>
              ) : null}
            </>
          ) : billing ? (
            '無料会員'
          ) : (
            'プランの情報を読み込めませんでした。'
          )}
        </dd>
      </dl>
      <Section title="プランとお支払い">
        <ul className={styles.links}>
          <li>
            <Link href="/service-plans" prefetch={false}>
              {plan ? 'プランの確認・変更・解約、カード情報の更新' : '料金プランを見る'}
            </Link>
          </li>
          <li>
            <Link href="/account/receipts" prefetch={false}>
              領収書
            </Link>
          </li>
        </ul>
      </Section>
      <Section title="プロフィールと設定">
        <ul className={styles.links}>
          <li>
            <Link href="/account/edit" prefetch={false}>
              プロフィールの編集
            </Link>
          </li>
          <li>
            <Link href="/account/edit" prefetch={false}>
              ニュースレターの受け取り（現在：{profile?.newsletter ? '受け取る' : '受け取らない'}）
            </Link>
          </li>
          <li>
            <Link href="/account/change-email" prefetch={false}>
              メールアドレスの変更
            </Link>
          </li>
          <li>
            <Link href="/account/forgot-password" prefetch={false}>
              パスワードの再設定
            </Link>
          </li>
        </ul>
      </Section>
      <Section title="保存した記事">
        <ul className={styles.links}>
          <li>
            <Link href="/posts/bookmark" prefetch={false}>
              ブックマーク
            </Link>
          </li>
        </ul>
      </Section>
      {partnerId ? (
        <Section title="パートナー企業">
          <ul className={styles.links}>
            <li>
              <Link href={`/biz/partner-admin/${encodeURIComponent(partnerId)}`} prefetch={false}>
                パートナー企業の管理画面
              </Link>
            </li>
          </ul>
        </Section>
      ) : null}
      <Section title="ログアウト">
        <SignOutButton />
      </Section>
      <p className={styles.footer}>
        <Link href="/account/delete" prefetch={false}>
          退会する
        </Link>
      </p>
    </AccountPage>
  );
}
