'use client';

import { useState, useSyncExternalStore } from 'react';
import styles from './share-links.module.css';

export const COPIED_MESSAGE = 'リンクをコピーしました';
export const COPY_FAILED_MESSAGE =
  'リンクをコピーできませんでした。アドレスバーのURLをコピーしてください。';

/**
 * What this browser can do, as one string (a stable snapshot for useSyncExternalStore):
 * 'copy' and 'share' when each is there; null on the server and without JavaScript.
 */
function abilities(): string {
  const copy = typeof navigator.clipboard?.writeText === 'function';
  // The OS's share sheet on phones and tablets (a touch screen): on a desktop the links beside
  // it already name the services.
  const share =
    typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;
  return [copy ? 'copy' : '', share ? 'share' : ''].join(' ');
}
const serverAbilities = (): string | null => null;
const subscribe = () => () => {};

/**
 * 「リンクをコピー」 and, on a phone, the system's share sheet (the Web Share API), beside the
 * plain service links of ShareLinks, which stay for every browser (docs/decisions/036-dark-mode-sharing-touch.md).
 * The result is said in a polite live region that is on the page before anything is said in it.
 */
export function ShareActions({ url, title }: { url: string; title: string }) {
  const can = useSyncExternalStore(subscribe, abilities, serverAbilities);
  const [status, setStatus] = useState('');
  const canCopy = can?.includes('copy') ?? false;
  const canShare = can?.includes('share') ?? false;
  if (!canCopy && !canShare) return null;

  const copy = async () => {
    setStatus('');
    try {
      await navigator.clipboard.writeText(url);
      setStatus(COPIED_MESSAGE);
    } catch {
      setStatus(COPY_FAILED_MESSAGE);
    }
  };
  const share = async () => {
    setStatus('');
    try {
      await navigator.share({ title, url });
    } catch {
      // Closed by the reader (AbortError) or refused: the links beside it remain.
    }
  };

  return (
    <div className={styles.actions}>
      {canShare ? (
        <button type="button" className={styles.action} onClick={() => void share()}>
          その他のアプリで共有
        </button>
      ) : null}
      {canCopy ? (
        <button type="button" className={styles.action} onClick={() => void copy()}>
          リンクをコピー
        </button>
      ) : null}
      <p role="status" className={styles.status}>
        {status}
      </p>
    </div>
  );
}
