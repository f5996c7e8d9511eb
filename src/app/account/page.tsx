import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { AccountPage, LinkList, Notice, Section } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { SignOutButton } from '@/components/account/sign-out-button.client';
import { PlanSummary } from '@/components/account/plan-summary';
import { renderedBillingNotice } from '@/components/billing/billing-notice-banner';
import { BillingNoticeMessage } from '@/components/billing/billing-notice-message';
import { toCurrentPlanView } from '@/components/billing/views';
import { billingSummaryFor } from '@/server/features/billing/reader-billing';
import { getDb } from '@/server/platform/db/client';
import { Button } from '@/components/ui/button';
import { NewPasswordFields } from '@/components/account/account-fields';
import { PostForm } from '@/components/forms/form.client';
import { doneMessage, failure } from '@/lib/http/form-flash';
import { readFlash } from '@/server/platform/http/read-flash';
import { hasPassword, requireUser } from '@/server/features/identity/session';
import { getProfileDetails } from '@/server/features/profiles/profiles';
import { trackingAllowed } from '@/server/features/newsletter/tracking';
import styles from '@/components/account/account-page.module.css';
import { listPurchasesOf } from '@/server/features/purchases';
import { PurchasesList } from './purchases-list';
import { listGiftsSentBy } from '@/server/features/gift-plans';
import { GiftsSent } from './gifts-sent';
import { PodcastFeedSection, podcastFeedOf } from '@/components/account/podcast-feed-section';
import { OrganizationStanding } from '@/components/organizations/organization-standing';
import {
  organizationSeat,
  organizationsAdministeredBy,
  seatStanding,
} from '@/server/features/organizations';

/** 法人プラン: the seat the reader's confirmed address takes (if any), then where they stand. */
async function organizationOf(user: Parameters<typeof organizationSeat>[1]) {
  const db = await getDb();
  await organizationSeat(db, user);
  const [standing, administered] = await Promise.all([
    seatStanding(db, user.id),
    organizationsAdministeredBy(db, user.id),
  ]);
  return { standing, administered };
}

export const metadata = accountMetadata('アカウント', '/account');

/**
 * The account hub (note's and Ghost's "account" page): who is signed in, their plan, and one
 * link to each thing a reader manages — profile and e-mail settings, plan and billing,
 * receipts, bookmarks — and sign-out. Signed-out visitors go to the login page and come back.
 * Plain links and a form: it works without JavaScript. The one action button is ログアウト, in
 * the secondary colour: the hub has no primary step.
 *
 * At the top, the reader's billing notice, rendered here so that it needs no JavaScript: a
 * failed renewal (amount, next retry), or once, a second plan taken back and refunded or the
 * end of the plan. Reading it claims the one telling (src/server/features/billing/reader-notices.ts);
 * the banner under the header has the same notice in the same render and leaves it to the hub.
 */
export default async function AccountHubPage() {
  const user = await requireUser('/account');
  const db = await getDb();
  const [
    profile,
    billing,
    notice,
    withPassword,
    flash,
    purchases,
    gifts,
    organization,
    tracked,
    podcast,
  ] = await Promise.all([
    getProfileDetails(db, user.id),
    // The hub stays usable when billing records cannot be read; it says so in the plan line.
    billingSummaryFor(db, user.id).catch(() => null),
    // The same notice as the banner's of this render (which leaves it to the hub).
    renderedBillingNotice(user.id),
    hasPassword(user.id),
    readFlash(),
    listPurchasesOf(db, user.id).catch(() => []),
    listGiftsSentBy(db, user.id).catch(() => []),
    organizationOf(user).catch(() => null),
    trackingAllowed(db, user.id),
    podcastFeedOf(user).catch(() => null),
  ]);
  const plan = billing?.current ? toCurrentPlanView(billing.current) : null;
  const done = doneMessage(flash);
  const partnerId = profile?.partnerId ?? '';
  return (
    <AccountPage title="アカウント">
      {done ? (
        <Notice>
          <p>{done}</p>
        </Notice>
      ) : null}
      {notice ? (
        <Notice tone={notice.kind === 'past_due' ? 'error' : 'info'}>
          <BillingNoticeMessage notice={notice} />
        </Notice>
      ) : null}
      <dl className={styles.lead}>
        <dt>お名前（表示名）</dt>
        <dd>{profile?.displayName ?? user.name}</dd>
        <dt>メールアドレス</dt>
        <dd>{user.email}</dd>
        <dt>ご利用中のプラン</dt>
        <dd>
          <PlanSummary plan={plan} loaded={billing !== null} />
        </dd>
      </dl>
      <Section title="プランとお支払い">
        <LinkList
          links={[
            {
              href: '/service-plans',
              label: plan ? 'プランの確認・変更・解約、カード情報の更新' : '料金プランを見る',
            },
            { href: '/account/receipts', label: '領収書' },
          ]}
        />
      </Section>
      {organization ? <OrganizationStanding {...organization} /> : null}
      <PurchasesList purchases={purchases.filter((purchase) => purchase.kind !== 'gift-plan')} />
      <GiftsSent gifts={gifts} />
      <Section title="プロフィールと設定">
        <LinkList
          links={[
            { href: '/account/edit', label: 'プロフィールの編集' },
            { href: '/account/change-email', label: 'メールアドレスの変更' },
            { href: '/account/forgot-password', label: 'パスワードの再設定' },
          ]}
        />
      </Section>
      {withPassword ? null : (
        <Section title="パスワードを設定">
          {user.emailVerified ? (
            <>
              <p className={styles.state}>
                このアカウントにはパスワードがありません。ログイン用のリンクでログインできますが、パスワードを設定すると、メールアドレスとパスワードでもログインできます。
              </p>
              <PostForm
                action="/api/account/set-password"
                submitLabel="パスワードを設定"
                initialErrors={failure(flash)}
              >
                <NewPasswordFields />
              </PostForm>
            </>
          ) : (
            <p className={styles.state}>
              メールアドレスの確認が済むと、パスワードを設定できます。お申し込みのときにお送りしたメールのリンクを開いてください（期限が切れた場合は、ログアウトしてログイン画面の「メールでログイン」から新しいリンクを受け取れます）。
            </p>
          )}
        </Section>
      )}
      <Section title="ニュースレター">
        <p className={styles.state}>
          {profile?.newsletter
            ? '新しい記事のお知らせをメールで受け取っています。'
            : 'ニュースレターを受け取っていません。'}
        </p>
        <form method="post" action="/api/newsletter/account">
          <input type="hidden" name="subscribed" value={profile?.newsletter ? 'off' : 'on'} />
          <Button
            type="submit"
            color={profile?.newsletter ? 'white' : 'yellow'}
            fullWidth
            height={44}
          >
            {profile?.newsletter ? '配信を停止する' : 'ニュースレターを受け取る（再開する）'}
          </Button>
        </form>
        <p className={styles.state}>
          {tracked
            ? 'メールの開封とリンクのクリックを計測しています（どの記事が読まれているかを知るためです）。'
            : 'メールの開封とリンクのクリックを計測していません。'}
        </p>
        <form method="post" action="/api/newsletter/tracking">
          <input type="hidden" name="tracking" value={tracked ? 'off' : 'on'} />
          <Button type="submit" color="white" fullWidth height={44}>
            {tracked ? '開封・クリックの計測を止める' : '開封・クリックの計測を再開する'}
          </Button>
        </form>
      </Section>
      {podcast ? <PodcastFeedSection {...podcast} /> : null}
      <Section title="保存した記事">
        <LinkList links={[{ href: '/posts/bookmark', label: 'ブックマーク' }]} />
      </Section>
      {partnerId ? (
        <Section title="パートナー企業">
          <LinkList
            links={[
              {
                href: `/biz/partner-admin/${encodeURIComponent(partnerId)}`,
                label: 'パートナー企業の管理画面',
              },
            ]}
          />
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
