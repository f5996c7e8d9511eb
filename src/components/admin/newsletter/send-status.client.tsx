'use client';

import { Fragment, useEffect, useState } from 'react';
import staff from '@/components/admin/staff.module.css';
import {
  LETTER_COUNT_LABELS,
  type LetterCounts,
  READER_COUNT_KEYS,
  SEND_STATUS_LABELS,
  type SendStatus,
  type SendStatusAnswer,
  isActiveSend,
  newsletterPaths,
  sendSummary,
} from '@/lib/newsletter/console';
import { formatNumber } from '@/lib/format';

/** How often a send still under way is asked about. */
export const STATUS_POLL_MS = 2000;

const COUNT_KEYS = Object.keys(LETTER_COUNT_LABELS) as (keyof LetterCounts)[];

function isAnswer(value: unknown): value is SendStatusAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { status, counts } = value as Partial<SendStatusAnswer>;
  return (
    typeof status === 'string' &&
    status in SEND_STATUS_LABELS &&
    typeof counts === 'object' &&
    counts !== null &&
    COUNT_KEYS.every((key) => typeof counts[key] === 'number')
  );
}

/**
 * Where one send stands: its state and letters by state, read again every 2 s while it is
 * queued or sending (the server renders the first figures, so the page is whole without
 * JavaScript). The summary line is a polite live region: it changes once per refresh at most.
 */
export function SendStatusView({
  sendId,
  initial,
}: {
  sendId: string;
  initial: { status: SendStatus; counts: LetterCounts };
}) {
  const [state, setState] = useState(initial);
  const [stale, setStale] = useState(false);
  // Each answer (or failure) schedules the next read, even when nothing changed.
  const [reads, setReads] = useState(0);
  const active = isActiveSend(state.status);

  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void fetch(newsletterPaths.apiStatus(sendId), {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      })
        .then(async (response) => {
          const body: unknown = response.ok ? await response.json() : null;
          if (cancelled) return;
          if (isAnswer(body)) {
            setStale(false);
            setState({ status: body.status, counts: body.counts });
          } else setStale(true);
          setReads((n) => n + 1);
        })
        .catch(() => {
          if (cancelled) return;
          setStale(true);
          setReads((n) => n + 1);
        });
    }, STATUS_POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [active, sendId, reads]);

  return (
    <div>
      <p role="status" aria-live="polite">
        {sendSummary(state.status, state.counts)}
      </p>
      {stale ? (
        <p className={staff.hint}>最新の状況を読み込めませんでした。再試行しています…</p>
      ) : null}
      <dl className={staff.facts}>
        <dt>状態</dt>
        <dd>{SEND_STATUS_LABELS[state.status]}</dd>
        {COUNT_KEYS.map((key) => (
          <Fragment key={key}>
            <dt>{LETTER_COUNT_LABELS[key]}</dt>
            <dd>
              {formatNumber(state.counts[key])} {READER_COUNT_KEYS.includes(key) ? '人' : '通'}
            </dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
