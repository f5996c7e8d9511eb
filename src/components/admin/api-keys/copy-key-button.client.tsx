'use client';

import { useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import styles from './api-keys.module.css';

const subscribeToNothing = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/**
 * Copies the new key from the element `targetId` (read from the page, so the key is not sent
 * a second time in the page's script data). Without JavaScript there is no button: the key is
 * selectable text. Where the clipboard is refused (an http address), the key is selected for
 * Ctrl+C instead.
 */
export function CopyKeyButton({ targetId }: { targetId: string }) {
  const hydrated = useSyncExternalStore(subscribeToNothing, isBrowser, isServer);
  const [status, setStatus] = useState('');

  async function copy() {
    const target = document.getElementById(targetId);
    const text = target?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setStatus('キーをコピーしました。');
    } catch {
      if (target) window.getSelection()?.selectAllChildren(target);
      setStatus(
        'コピーできませんでした。キーを選択したので、Ctrl+C（Mac は ⌘+C）でコピーしてください。',
      );
    }
  }

  return (
    <div className={styles.copy}>
      {hydrated ? (
        <Button type="button" color="black" width="auto" height={44} onClick={() => void copy()}>
          キーをコピー
        </Button>
      ) : null}
      {/* Present from the start, so that what it says later is announced. */}
      <p role="status" className={styles.copyStatus}>
        {status}
      </p>
    </div>
  );
}
