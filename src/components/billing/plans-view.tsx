import type { ReactNode } from 'react';
import { type BillingNotice, billingNoticeText } from '@/lib/billing-notice';
import { Link } from '@/components/layout/site-link';
import { ButtonLink } from '@/components/ui/button';
import { type OfferView, offerTerms } from '@/lib/billing/offer-terms';
import { confirmPath } from '@/lib/confirm-path';
import { formatYen } from '@/lib/format';
import {
  type CurrentPlanView,
  PAST_DUE_MESSAGE,
  type PlanView,
  monthlyEquivalent,
  planPrice,
  planRenewalLine,
  planStatusLabel,
  recommendedPlanKey,
  savingAgainstMonthly,
} from './billing-format';
import styles from './billing.module.css';
import { CustomerPortalButton } from './customer-portal-button.client';
import { OfferMessage, PageNotice } from './page-notice';

/**
 * /service-plans (SPEC §2): every plan of the catalogue with its tax-inclusive price, what paid
 * and free membership give, the trial a reader who never had one gets, and, for a reader with a
 * plan, that plan and the customer portal. The page decides the viewer; this only draws it.
 */

export type PlansViewer =
  | { kind: 'anonymous'; trialDays: number }
  | {
      kind: 'member';
      /** Free days a checkout would start with (0: no trial for this reader). */
      trialDays: number;
      customerId: string | null;
      current: CurrentPlanView | null;
    };

export type PlansViewProps = {
  plans: PlanView[];
  viewer: PlansViewer;
  /** Sent back from the confirmation screen: this reader already has a plan. */
  alreadySubscribed?: boolean;
  /** A failed renewal's amount and next retry (src/server/features/billing/reader-notices.ts). */
  pastDue?: BillingNotice;
  /** A valid offer the reader came with (`?offer=CODE`): its price beside each plan's. */
  offer?: OfferView | null;
  /** Why the code the reader came with cannot be used. */
  offerMessage?: string | null;
  /** The page the reader came from (a safe local path), carried by every plan button. */
  next?: string;
};

/** What paid membership opens (docs/decisions/000-design-baseline.md "Who reads what"). */
export const PAID_BENEFITS = [
  'すべての記事を全文で読めます（連載・特集・インサイトの記事も）',
  '音声コンテンツを聴けます',
  '動画を観られます',
  'ブックマーク、コネクトなど、無料会員の機能もすべて使えます',
] as const;

/** What a free account gives (src/lib/access/post-access.ts). */
export const FREE_BENEFITS = [
  '会員向けの記事のうち、新しいもの3本を全文で読めます',
  '気になる記事をブックマークに保存できます',
  'コネクト（会員向けイベントのご案内）のページを読めます',
] as const;

const signUpHref = (next: string) =>
  next === '/' ? '/sign-up' : `/sign-up?next=${encodeURIComponent(next)}`;

/** A plan the reader pays through the provider: the portal is theirs to manage it. */
const managesWithPortal = (viewer: PlansViewer) =>
  viewer.kind === 'member' && viewer.current?.provider === 'stripe' && viewer.customerId !== null;

export function PlansView({
  plans,
  viewer,
  alreadySubscribed = false,
  pastDue = null,
  next = '/',
  offer = null,
  offerMessage = null,
}: PlansViewProps) {
  const current = viewer.kind === 'member' ? viewer.current : null;
  const monthly = plans.find((plan) => plan.interval === 'month' && plan.intervalCount <= 1);
  // One primary button per screen: the recommended plan's, for a reader choosing a plan. A
  // reader who holds one (shown in the panel, or only in the notice) has their own primary.
  const choosing =
    !current && !(alreadySubscribed && viewer.kind === 'member' && viewer.customerId);
  const recommended = choosing ? recommendedPlanKey(plans) : null;
  return (
    <div className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>料金プラン</h1>
        <p className={styles.lead}>
          有料会員になると、「有料会員限定」を含むすべての記事、音声、動画をお楽しみいただけます。料金はすべて税込です。
        </p>
      </header>

      <OfferMessage message={offerMessage} />

      {alreadySubscribed && viewer.kind === 'member' ? (
        <PageNotice tone="info">
          <p>
            すでに有料プランをお申し込み済みです。プランの変更やお支払いの手続きは「プランの管理」からお願いします。
          </p>
          {/* A plan the panel below does not show (unpaid, incomplete): the portal from here. */}
          {!current && viewer.customerId ? (
            <CustomerPortalButton customerId={viewer.customerId} label="プランの管理" />
          ) : null}
        </PageNotice>
      ) : null}

      {current && viewer.kind === 'member' ? (
        <CurrentPlanPanel plan={current} customerId={viewer.customerId} pastDue={pastDue} />
      ) : null}

      <section aria-labelledby="paid-plans-heading" className={styles.section}>
        <h2 id="paid-plans-heading" className={styles.sectionTitle}>
          有料プラン
        </h2>
        <TrialNote viewer={viewer} plans={plans} offer={offer} />
        <ul className={styles.planGrid}>
          {plans.map((plan) => (
            <li key={plan.key}>
              <PlanCard
                plan={plan}
                viewer={viewer}
                saving={savingAgainstMonthly(plan, monthly)}
                monthlyName={monthly?.name}
                next={next}
                recommended={plan.key === recommended}
                offer={offer}
              />
            </li>
          ))}
        </ul>
        <p className={styles.small}>
          メンバーシップは贈ることもできます（1か月・3か月・12か月分、自動更新なし）。
          <Link href="/gift">メンバーシップをギフトで贈る</Link>
        </p>
      </section>

      <section aria-labelledby="free-plan-heading" className={styles.section}>
        <div className={styles.freeCard}>
          <h2 id="free-plan-heading" className={styles.cardTitle}>
            無料会員
          </h2>
          <p className={styles.price}>
            <span className={styles.priceAmount}>¥0</span>
          </p>
          <p>無料の会員登録で、次のことができます。</p>
          <ul className={styles.benefits}>
            {FREE_BENEFITS.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>
          <p className={styles.small}>
            「無料公開」の記事・音声・動画は、会員登録をしなくてもどなたでもご覧いただけます。そのほかの音声と動画は有料会員の方がご利用いただけます。
          </p>
          {viewer.kind === 'anonymous' ? (
            <p className={styles.cardActions}>
              <ButtonLink href={signUpHref(next)} color="white" width={270} height={48}>
                無料で会員登録
              </ButtonLink>
            </p>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="plan-notes-heading" className={styles.section}>
        <h2 id="plan-notes-heading" className={styles.sectionTitle}>
          お支払いと解約について
        </h2>
        <ul className={styles.notes}>
          <li>
            有料プランのお支払いはクレジットカードです。記事の購入・チップ・ギフトは、コンビニ払いと
            PayPay でもお支払いいただけます。表示の料金はすべて消費税込みです。
          </li>
          <li>
            有料プランは、解約されるまで契約期間ごとに自動で更新されます。お申し込みの前に、最終確認画面で料金とお支払いの時期をご確認いただけます。
          </li>
          <li>
            解約は「プランの管理」からいつでもできます。解約後も、お支払い済みの期間の終わりまでご利用いただけます（日割りの返金はありません）。
          </li>
          <li>
            プランの変更は、手続きの直後から反映されます。変更前のプランの残り期間についての返金はありません。
          </li>
        </ul>
        <p className={styles.small}>
          <Link href="/specified-commercial-transactions">特定商取引法に基づく表記</Link>・
          <Link href="/terms">利用規約</Link>・<Link href="/faq">よくある質問</Link>
        </p>
      </section>
    </div>
  );
}

/**
 * Who gets the free days, said once above the cards (each card says how many). An offer
 * replaces the trial on the plans it applies to (checkout.ts decides so): those plans promise
 * no trial, and the note says why.
 */
function TrialNote({
  viewer,
  plans,
  offer,
}: {
  viewer: PlansViewer;
  plans: PlanView[];
  offer: OfferView | null;
}) {
  if (viewer.trialDays <= 0 || (viewer.kind === 'member' && viewer.current)) return null;
  const offered = offer ? plans.filter((plan) => offerTerms(offer, plan)) : [];
  if (offer && offered.length === plans.length) {
    return (
      <p className={styles.trialNote}>
        クーポンコード「{offer.code}
        」でのお申し込みには、無料体験はつきません（割引との併用はできません）。
      </p>
    );
  }
  return (
    <p className={styles.trialNote}>
      無料体験は、初めて有料プランをお申し込みになる方が対象です（おひとり様1回限り）。無料期間中に解約すれば、料金はかかりません。
      {offer && offered.length > 0
        ? `クーポンコード「${offer.code}」の割引がある${offered.map((plan) => `「${plan.name}」`).join('と')}は、無料体験の代わりに割引でのお申し込みになります（併用はできません）。`
        : null}
    </p>
  );
}

function PlanCard({
  plan,
  viewer,
  saving,
  monthlyName,
  next,
  recommended,
  offer,
}: {
  plan: PlanView;
  viewer: PlansViewer;
  offer: OfferView | null;
  saving: number;
  monthlyName: string | undefined;
  next: string;
  /** The page's one primary button; the other plans' are secondary. */
  recommended: boolean;
}) {
  const titleId = `plan-${plan.key}-title`;
  const current = viewer.kind === 'member' ? viewer.current : null;
  const isCurrent = !!current && current.planKey === plan.key;
  const perMonth = monthlyEquivalent(plan);
  const terms = offer && !current ? offerTerms(offer, plan) : null;
  // An offer replaces the trial, as at checkout.
  const trialDays = terms ? 0 : viewer.kind === 'anonymous' || !current ? viewer.trialDays : 0;
  return (
    <article
      aria-labelledby={titleId}
      className={isCurrent ? `${styles.card} ${styles.cardCurrent}` : styles.card}
    >
      <h3 id={titleId} className={styles.cardTitle}>
        {plan.name}
      </h3>
      {isCurrent ? <p className={styles.badge}>ご利用中</p> : null}
      {recommended ? <p className={styles.badge}>おすすめ</p> : null}
      {trialDays > 0 ? (
        <p className={styles.trialBadge}>
          {viewer.kind === 'anonymous'
            ? `初めての方は ${trialDays} 日間無料`
            : `初回 ${trialDays} 日間無料`}
        </p>
      ) : null}
      {terms && offer ? (
        <div className={styles.trialBadge}>
          <p>
            <strong>{terms.label}</strong>
          </p>
          <p className={styles.small}>
            クーポンコード「{offer.code}」（{terms.name}）。{terms.after}
          </p>
        </div>
      ) : null}
      <p className={styles.price}>
        {terms ? <span className={styles.priceAfter}>通常価格</span> : null}
        {trialDays > 0 ? <span className={styles.priceAfter}>無料期間の後は</span> : null}
        <span className={styles.priceAmount}>{planPrice(plan)}</span>
      </p>
      {perMonth !== null ? (
        <p className={styles.equivalent}>
          月あたり約 {formatYen(perMonth)}
          {saving > 0 ? (
            <>
              。{monthlyName ?? '月額プラン'}の12か月分より {formatYen(saving)} お得です
            </>
          ) : null}
        </p>
      ) : null}
      <ul className={styles.benefits}>
        {PAID_BENEFITS.map((benefit) => (
          <li key={benefit}>{benefit}</li>
        ))}
      </ul>
      <div className={styles.cardActions}>
        <PlanAction
          plan={plan}
          viewer={viewer}
          isCurrent={isCurrent}
          titleId={titleId}
          next={next}
          primary={recommended}
          offer={terms ? offer?.code : undefined}
        />
      </div>
    </article>
  );
}

function PlanAction({
  plan,
  viewer,
  isCurrent,
  titleId,
  next,
  primary,
  offer,
}: {
  plan: PlanView;
  viewer: PlansViewer;
  offer?: string;
  isCurrent: boolean;
  titleId: string;
  next: string;
  primary: boolean;
}) {
  const color = primary ? 'yellow' : 'white';
  if (isCurrent) return <p className={styles.small}>現在ご利用中のプランです。</p>;
  if (!plan.active) {
    return <p className={styles.small}>このプランは現在お申し込みを受け付けていません。</p>;
  }
  if (viewer.kind === 'anonymous') {
    // The confirmation screen itself takes a visitor's account details: no detour by /login.
    return (
      <ConfirmLink plan={plan} next={next} offer={offer} color={color}>
        申し込む
      </ConfirmLink>
    );
  }
  if (managesWithPortal(viewer) && viewer.customerId) {
    return (
      <>
        <p className={styles.small}>プランの変更は『プランの管理』から</p>
        <CustomerPortalButton
          customerId={viewer.customerId}
          label="このプランに変更する"
          color="white"
          confirmPlanChange
          describedBy={titleId}
        />
      </>
    );
  }
  return (
    <ConfirmLink plan={plan} next={next} offer={offer} color={color}>
      このプランを選ぶ
    </ConfirmLink>
  );
}

/** A plan's way to its confirmation screen; the plan's name completes the label for screen readers. */
function ConfirmLink({
  plan,
  next,
  offer,
  color,
  children,
}: {
  plan: PlanView;
  next: string;
  offer?: string;
  color: 'yellow' | 'white';
  children: ReactNode;
}) {
  return (
    <ButtonLink
      href={confirmPath(plan.key, next, offer)}
      prefetch={false}
      color={color}
      width={270}
      height={48}
    >
      {children}
      <span className="visually-hidden">（{plan.name}）</span>
    </ButtonLink>
  );
}

/** The reader's live plan at the top of the page. */
export function CurrentPlanPanel({
  plan,
  customerId,
  pastDue = null,
}: {
  plan: CurrentPlanView;
  customerId: string | null;
  pastDue?: BillingNotice;
  /** A valid offer the reader came with (`?offer=CODE`): its price beside each plan's. */
  offer?: OfferView | null;
  /** Why the code the reader came with cannot be used. */
  offerMessage?: string | null;
}) {
  const viaProvider = plan.provider === 'stripe';
  const renewal = planRenewalLine(plan);
  return (
    <section aria-labelledby="current-plan-heading" className={styles.currentPanel}>
      <h2 id="current-plan-heading" className={styles.sectionTitle}>
        ご利用中のプラン
      </h2>
      {plan.status === 'past_due' ? (
        <PageNotice tone="error">
          <p>
            {pastDue?.kind === 'past_due'
              ? `${billingNoticeText(pastDue)}更新すると自動で再決済されます。`
              : PAST_DUE_MESSAGE}
          </p>
          {viaProvider && customerId ? (
            <CustomerPortalButton customerId={customerId} label="カード情報を更新する" />
          ) : null}
        </PageNotice>
      ) : null}
      <dl className={styles.facts}>
        <div>
          <dt>プラン</dt>
          <dd>{plan.planName || '有料プラン'}</dd>
        </div>
        <div>
          <dt>状態</dt>
          <dd>{planStatusLabel(plan)}</dd>
        </div>
        {renewal ? (
          <div>
            <dt>{plan.provider === 'stripe' ? '更新' : '期限'}</dt>
            <dd>{renewal}</dd>
          </div>
        ) : null}
      </dl>
      {viaProvider ? (
        <>
          {customerId ? (
            <div className={styles.manage}>
              {/* While a renewal is unpaid, updating the card is the one primary step. */}
              <CustomerPortalButton
                customerId={customerId}
                label="プランの管理"
                color={plan.status === 'past_due' ? 'white' : 'yellow'}
              />
              <p className={styles.small}>
                プランの変更、解約、解約の取り消し、カード情報の変更、請求書の確認は「プランの管理」からできます。
              </p>
            </div>
          ) : null}
          <p>
            <Link href="/account/receipts">領収書</Link>
          </p>
        </>
      ) : (
        <p className={styles.small}>
          このプランは無償でご提供しているため、お支払いの手続きはありません。
        </p>
      )}
    </section>
  );
}
