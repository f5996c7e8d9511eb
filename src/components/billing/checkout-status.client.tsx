'use client';

import Link from 'next/link';
import { type ComponentProps, useEffect, useRef, useState } from 'react';
import { announceLoginChange } from '@/components/account/auth-state.client';
import { ButtonLink } from '@/components/ui/button';
import { InlineSpinner } from '@/components/ui/spinner';
import { formatDate } from './billing-format';
import styles from './billing.module.css';

/**
 * /service-plans/checkout-success: where the checkout's return route sends a reader it cannot
 * send straight back to the article (no page to return to, or the subscription not yet there:
 * it reaches the site through its webhook a moment later). The page asks every second
 * (for 30 seconds at most) whether it has been recorded, then shows the plan, or says plainly
 * that it is taking long. The server renders the state it found first, so without JavaScript
 * the page still says where things stand (and refreshes itself a few times).
 */

export type CheckoutOutcomeView =
  | { state: 'recorded'; planName: string; status: string; trialEnd: string | null }
  | { state: 'duplicate' }
  | { state: 'pending' }
  | { state: 'not-found' };

export type CheckoutStatusView = CheckoutOutcomeView | { state: 'timeout' };

export const CHECKOUT_POLL_MS = 1000;
export const CHECKOUT_POLL_LIMIT_MS = 30_000;

export const CHECKING_TEXT = 'お申し込みを確認しています…';
export const DUPLICATE_TEXT =
  'すでに有料プランをご利用中のため、このお申し込みは取り消し、お支払いいただいた金額は全額返金しました（カードのご利用明細に反映されるまで数日かかることがあります）。ご利用中のプランはそのまま続きます。有料プランはおひとりにつきひとつです。';
export const TIMEOUT_TEXT =
  '確認に時間がかかっています。数分後に『料金プラン』のページでご確認ください。決済が完了していれば、確認メールが届きます。';

function parseOutcome(body: unknown): CheckoutOutcomeView | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = body as Record<string, unknown>;
  if (value.state === 'recorded') {
    return {
      state: 'recorded',
      planName: typeof value.planName === 'string' ? value.planName : '',
      status: typeof value.status === 'string' ? value.status : '',
      trialEnd: typeof value.trialEnd === 'string' ? value.trialEnd : null,
    };
  }
  if (value.state === 'duplicate') return { state: 'duplicate' };
  if (value.state === 'not-found') return { state: 'not-found' };
  if (value.state === 'pending') return { state: 'pending' };
  return null;
}

export function CheckoutStatus({
  sessionId,
  initial,
  reloadHref,
  nextHref,
  pollMs = CHECKOUT_POLL_MS,
  limitMs = CHECKOUT_POLL_LIMIT_MS,
}: {
  sessionId: string;
  initial: CheckoutStatusView;
  /** This page again (the link of the "taking long" message). */
  reloadHref: string;
  /** The page the reader came from: once recorded, the reader is sent there. */
  nextHref?: string;
  pollMs?: number;
  limitMs?: number;
}) {
  const [view, setView] = useState<CheckoutStatusView>(initial);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const changed = useRef(false);

  useEffect(() => {
    if (initial.state !== 'pending') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const settle = (next: CheckoutStatusView) => {
      if (stopped) return;
      stopped = true;
      changed.current = true;
      setView(next);
    };
    const ask = async () => {
      try {
        const response = await fetch(
          `/api/billing/checkout-status?session_id=${encodeURIComponent(sessionId)}`,
          { cache: 'no-store', headers: { accept: 'application/json' } },
        );
        const outcome = response.ok ? parseOutcome(await response.json()) : null;
        if (outcome && outcome.state !== 'pending') {
          settle(outcome);
          return;
        }
      } catch {
        // A dropped request is asked again with the next one.
      }
      if (stopped) return;
      if (Date.now() - started >= limitMs) settle({ state: 'timeout' });
      else timer = setTimeout(() => void ask(), pollMs);
    };
    timer = setTimeout(() => void ask(), pollMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [initial.state, sessionId, pollMs, limitMs]);

  useEffect(() => {
    if (!changed.current) return;
    // The outcome replaces the waiting text: the reader's focus goes to what it says.
    headingRef.current?.focus();
    // The header's account menu and the site-wide notices read the plan again.
    if (view.state === 'recorded') {
      announceLoginChange();
      // Back to the article the reader came from, now open in full.
      if (nextHref) window.location.assign(nextHref);
    }
  }, [view, nextHref]);

  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <div className={styles.result}>
        <h1 ref={headingRef} tabIndex={-1} className={styles.title}>
          {HEADINGS[view.state]}
        </h1>
        <div role="status" className={styles.result}>
          <StatusBody view={view} reloadHref={reloadHref} nextHref={nextHref} />
        </div>
      </div>
    </div>
  );
}

const HEADINGS: Record<CheckoutStatusView['state'], string> = {
  pending: 'お申し込みの確認',
  recorded: 'お申し込みが完了しました',
  duplicate: 'このお申し込みは取り消しました',
  timeout: 'お申し込みの確認',
  'not-found': 'お申し込みが見つかりません',
};

function StatusBody({
  view,
  reloadHref,
  nextHref,
}: {
  view: CheckoutStatusView;
  reloadHref: string;
  nextHref?: string;
}) {
  switch (view.state) {
    case 'pending':
      return (
        <p className={styles.waiting}>
          <InlineSpinner />
          <span>{CHECKING_TEXT}</span>
        </p>
      );
    case 'recorded':
      return (
        <>
          <p>
            {view.planName
              ? `${view.planName}のお申し込みを受け付けました。`
              : 'お申し込みを受け付けました。'}
            ありがとうございます。会員限定のコンテンツを、すぐにお楽しみいただけます。
          </p>
          {view.trialEnd ? (
            <p>
              無料体験は {formatDate(view.trialEnd)}{' '}
              まで。その日に初回分を決済します（それまでに解約すれば、料金はかかりません）。
            </p>
          ) : null}
          <ul className={styles.links}>
            <li>
              {nextHref ? (
                <ResultButton href={nextHref}>記事の続きを読む</ResultButton>
              ) : (
                <ResultButton href="/posts">会員限定の記事を読む</ResultButton>
              )}
            </li>
            <li>
              <ResultButton href="/service-plans" color="white">
                ご利用中のプラン
              </ResultButton>
            </li>
          </ul>
        </>
      );
    case 'duplicate':
      return (
        <>
          <p>{DUPLICATE_TEXT}</p>
          <p>プランの変更は「プランの管理」からお手続きください。</p>
          <ul className={styles.links}>
            <li>
              <ResultButton href="/service-plans">ご利用中のプラン</ResultButton>
            </li>
          </ul>
        </>
      );
    case 'timeout':
      return (
        <>
          <p>{TIMEOUT_TEXT}</p>
          <ul className={styles.links}>
            <li>
              <a href={reloadHref}>このページを再読み込みする</a>
            </li>
            <li>
              <Link href="/service-plans" prefetch={false}>
                料金プランのページへ
              </Link>
            </li>
          </ul>
        </>
      );
    case 'not-found':
      return (
        <>
          <p>
            このお申し込みは見つかりませんでした。別のアカウントでログインしている場合は、お申し込みに使ったアカウントでログインし直してください。
          </p>
          <p>
            <Link href="/service-plans" prefetch={false}>
              料金プランのページへ
            </Link>
          </p>
        </>
      );
  }
}

/** The result's buttons, all of one size. */
function ResultButton(props: Omit<ComponentProps<typeof ButtonLink>, 'width' | 'height'>) {
  return <ButtonLink {...props} width={240} height={48} />;
}
