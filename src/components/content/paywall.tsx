import { Link } from '@/components/layout/site-link';
import { FREE_BENEFITS, PAID_BENEFITS } from '@/components/billing/plans-view';
import { env } from '@/env';
import type { CallToAction } from '@/lib/access/post-access';
import styles from './paywall.module.css';
import { PlanChoices, planOffers, trialNote } from './paywall-plans';
import { PhraseText } from './phrase-text';
import { signInHref, signUpHref } from '@/components/layout/sign-in-links';
import { accessLabel, levelOfStep, remainingCharsLabel } from '@/lib/access/access-label';
import { formatDurationJa } from '@/lib/format';
import { CONNECT_DESCRIPTION } from '@/lib/site';
import { buyLabel, purchaseConfirmPath } from '@/lib/billing/purchase';
import {
  type MeterView,
  meterLeftText,
  meterSignUpText,
  meterSpentText,
} from '@/lib/metered/meter';

/** The kinds of item a paywall ends. */
export type PaywallItem = 'post' | 'audio' | 'movie' | 'connect';

const NOUN: Record<PaywallItem, string> = {
  post: 'この記事',
  audio: 'この音声',
  movie: 'この動画',
  connect: 'このページ',
};

/** 「この記事は有料会員限定です」: the words of the item's badge (src/lib/access/access-label.ts). */
function headingOf(item: PaywallItem, opensWith: CallToAction['opensWith']): string {
  return `${NOUN[item]}は${accessLabel(levelOfStep(opensWith)).text}です`;
}

/**
 * How much is behind the paywall, without any of it: the rounded count of the gated text
 * (remainingCharsLabel states the rule) and a recording's length. Null when there is nothing to
 * measure (a movie without a duration, a post whose rest is pictures).
 */
export function amountBehind(
  item: PaywallItem,
  behind: { gatedChars?: number; duration?: number },
): string | null {
  const chars = behind.gatedChars === undefined ? null : remainingCharsLabel(behind.gatedChars);
  const length = behind.duration ? formatDurationJa(behind.duration) : null;
  switch (item) {
    case 'audio':
      return (
        [length && `音声 ${length}`, chars && `書き起こし ${chars}`].filter(Boolean).join('・') ||
        null
      );
    case 'movie':
      return length && `動画 ${length}`;
    default:
      return chars;
  }
}

/** What the reader gets by taking the step the paywall offers, in one sentence. */
function promiseOf(item: PaywallItem, opensWith: CallToAction['opensWith']): string {
  if (opensWith === 'sign-up') {
    if (item === 'post') {
      return 'この記事は、無料会員の方もお読みいただける最新の会員限定記事 3 本のひとつです。無料の会員登録で、続きをすべてお読みいただけます。';
    }
    if (item === 'connect') {
      return `コネクトは、${CONNECT_DESCRIPTION}です。無料の会員登録で、すべてのページをお読みいただけます。`;
    }
    return '無料の会員登録で、続きをお楽しみいただけます。';
  }
  switch (item) {
    case 'post':
      return '有料プランに登録すると、すべての記事を全文お読みいただけます。';
    case 'audio':
      return '有料プランに登録すると、すべての音声と書き起こしをお楽しみいただけます。';
    case 'movie':
      return '有料プランに登録すると、すべての動画をご覧いただけます。';
    case 'connect':
      return '有料プランに登録すると、すべてのコンテンツをお楽しみいただけます。';
  }
}

/**
 * The end of the open part of an item for a reader without full access
 * (docs/decisions/000-design-baseline.md, "Who reads what"): what opens the rest, what that gives,
 * and one button for that step (a free account, or the plans), with ログイン beside it for a signed-out
 * reader. For a paid item the step is a plan: each plan on sale is a button to its final
 * confirmation screen (the recommended one primary) under the trial, with the plans page as a
 * plain link below them (PlanChoices).
 * Never shows any gated content.
 */
export async function Paywall({
  cta,
  item,
  returnTo,
  className,
  gatedChars,
  duration,
  contentId,
  meter,
}: {
  cta: CallToAction;
  /**
   * The metered wall while it is on (docs/decisions/055-metered-wall.md): a visitor is told what
   * a free account opens each month; a free member the reads left, or that they are used up.
   */
  meter?: MeterView;
  item: PaywallItem;
  /** The item's id: a post sold singly (`cta.price`) is offered to buy, beside the plans. */
  contentId?: string;
  /** Characters of text withheld (the policy's count), for 「残り約…文字（約…分）」. */
  gatedChars?: number;
  /** A recording's length in seconds. */
  duration?: number;
  /** The item's path: ログイン brings the reader back to it. */
  returnTo: string;
  /** `paywalled` where the withheld part would stand (the Article JSON-LD points at it). */
  className?: string;
}) {
  const subscribe = cta.opensWith === 'subscribe';
  const offers = subscribe ? await planOffers() : [];
  const amount = amountBehind(item, { gatedChars, duration });
  const step = accessLabel(levelOfStep(cta.opensWith));
  return (
    <aside
      className={className ? `${styles.paywall} ${className}` : styles.paywall}
      aria-labelledby="paywall-heading"
      // The view beacon reports that the page showed a paywall; the server checks it.
      data-paywall=""
    >
      <LockIcon />
      <h2 id="paywall-heading" className={styles.heading}>
        <PhraseText text={headingOf(item, cta.opensWith)} />
      </h2>
      <p className={styles.amount}>
        {amount ? <span>{amount}</span> : null}
        <span>{step.opensWith}</span>
      </p>
      <p className={styles.promise}>{promiseOf(item, cta.opensWith)}</p>
      {meter ? <MeterLine meter={meter} anonymous={cta.anonymous} returnTo={returnTo} /> : null}
      <div className={styles.benefits}>
        <p className={styles.benefitsHeading} id="paywall-benefits">
          {subscribe ? '有料会員になると' : '無料の会員登録で'}
        </p>
        <ul aria-labelledby="paywall-benefits">
          {(subscribe ? PAID_BENEFITS : FREE_BENEFITS).map((benefit) => (
            <li key={benefit}>{benefit}</li>
          ))}
        </ul>
      </div>
      {subscribe ? (
        // Each plan leads straight to its final confirmation screen (a visitor creates the
        // account there), carrying this item as `next`: the path ends back here, in full. The
        // trial is a new account's (the visitor's) or, on the page every free member shares, said
        // with its condition (trialNote).
        <PlanChoices
          offers={offers}
          next={returnTo}
          trial={trialNote(env().BILLING_TRIAL_DAYS, cta.anonymous ? 'reader' : 'members')}
          plansLabel={cta.anonymous ? '料金プランを見る' : '有料プランを見る'}
        />
      ) : (
        <p className={styles.actions}>
          <Link href={signUpHref(returnTo)} className={styles.primary}>
            無料で会員登録
          </Link>
        </p>
      )}
      {cta.price !== undefined && contentId ? (
        // A single article (docs/decisions/053-one-time-payments.md): its own final
        // confirmation screen (a visitor signs in on the way). Never offered to a reader whose
        // plan opens the post: the policy gives them the post, not a paywall.
        <p className={styles.actions}>
          <Link href={purchaseConfirmPath(contentId)} prefetch={false} className={styles.secondary}>
            {buyLabel(cta.price)}
          </Link>
        </p>
      ) : null}
      {cta.anonymous ? (
        <p className={styles.signIn}>
          すでに会員の方は
          <Link href={signInHref(returnTo)}>ログイン</Link>
        </p>
      ) : null}
    </aside>
  );
}

/**
 * The metered wall's line in the paywall. A free member with reads left reached this page by a
 * request that spends none (the router's navigation): 「全文を読む」 is a plain link, a page load,
 * which is what spends one. Used up: when the allowance comes back. A visitor: what a free
 * account opens, with the sign-up.
 */
function MeterLine({
  meter,
  anonymous,
  returnTo,
}: {
  meter: MeterView;
  anonymous: boolean;
  returnTo: string;
}) {
  if (anonymous || meter.left === undefined)
    return (
      <div className={styles.meter}>
        <p>{meterSignUpText(meter.perMonth)}</p>
        <p className={styles.actions}>
          <Link href={signUpHref(returnTo)} prefetch={false} className={styles.secondary}>
            無料で会員登録
          </Link>
        </p>
      </div>
    );
  if (meter.left === 0)
    return (
      <div className={styles.meter}>
        <p>{meterSpentText(meter.perMonth)}</p>
      </div>
    );
  return (
    <div className={styles.meter}>
      <p>{meterLeftText(meter.left)}</p>
      <p className={styles.actions}>
        {/* A page load, not the router's fetch: only a page load spends a read (decision 055). */}
        <a href={returnTo} className={styles.primary}>
          全文を読む
        </a>
      </p>
    </div>
  );
}

function LockIcon() {
  return (
    <span className={styles.icon} aria-hidden="true">
      <svg viewBox="0 0 16 16" width="20" height="20" focusable="false">
        <rect x="3" y="7" width="10" height="8" rx="1" fill="currentColor" />
        <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      </svg>
    </span>
  );
}

/**
 * For a free member reading a post the free plan opens: why this one is open, so the next
 * members' post behind a paywall is no surprise. Placed at the top of the body.
 */
/** The top of a metered read: how many more this month (「今月あと1本読めます」). */
export function MeterNote({ meter }: { meter: Required<MeterView> }) {
  return (
    <p className={styles.freePlanNote}>
      <strong>{meterLeftText(meter.left)}</strong>。無料会員は会員限定の記事を毎月{meter.perMonth}
      本まで全文お読みいただけます（同じ記事は今月中なら何度でも読めます）。
    </p>
  );
}

export function FreePlanNote() {
  return (
    <p className={styles.freePlanNote}>
      この記事は、無料会員の方もお読みいただける最新の会員限定記事 3
      本のひとつです。すべての記事を読むには
      <Link href="/service-plans" prefetch={false}>
        有料プラン
      </Link>
      をご覧ください。
    </p>
  );
}
