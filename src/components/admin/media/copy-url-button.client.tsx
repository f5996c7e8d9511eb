'use client';

import { useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import styles from './media.module.css';

const subscribeToNothing = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/**
 * Copies a file's URL (as content stores it) to the clipboard. Without JavaScript there is no
 * button: the URL beside it is selectable text. Where the clipboard is refused, the URL is
 * selected for Ctrl+C instead.
 */
export function CopyUrlButton({ targetId }: { targetId: string }) {
  const hydrated = useSyncExternalStore(subscribeToNothing, isBrowser, isServer);
  const [status, setStatus] = useState('');

  async function copy() {
    const target = document.getElementById(targetId);
    const text = target?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setStatus('URL をコピーしました。');
    } catch {
      if (target) window.getSelection()?.selectAllChildren(target);
      setStatus(
        'コピーできませんでした。URL を選択したので、Ctrl+C（Mac は ⌘+C）でコピーしてください。',
      );
    }
  }

  return (
    <>
      {hydrated ? (
        <Button type="button" color="white" width="auto" height={40} onClick={() => void copy()}>
          URL をコピー
        </Button>
      ) : null}
      {/* Present from the start, so that what it says later is announced. */}
      <p role="status" className={styles.status}>
        {status}
      </p>
    </>
  );
}
