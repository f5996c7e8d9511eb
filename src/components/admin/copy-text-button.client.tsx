'use client';

import { useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';

const subscribeToNothing = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/**
 * Copies the text of the element `targetId` (a field's value; read from the page, so a secret shown there is not
 * sent a second time in the page's script data). Without JavaScript there is no button: the
 * text is selectable. Where the clipboard is refused (an http address), the text is selected
 * for Ctrl+C instead.
 */
export function CopyTextButton({
  targetId,
  what,
  primary = false,
  className,
  statusClassName,
}: {
  targetId: string;
  /** What is copied, as the button and messages name it (キー, URL). */
  what: string;
  primary?: boolean;
  className?: string;
  statusClassName?: string;
}) {
  const hydrated = useSyncExternalStore(subscribeToNothing, isBrowser, isServer);
  const [status, setStatus] = useState('');

  async function copy() {
    const target = document.getElementById(targetId);
    // A read-only field (an address the reader may also select by hand) holds it as its value.
    const field = target instanceof HTMLInputElement ? target : null;
    const text = field ? field.value : (target?.textContent ?? '');
    try {
      await navigator.clipboard.writeText(text);
      setStatus(`${what}をコピーしました。`);
    } catch {
      if (field) field.select();
      else if (target) window.getSelection()?.selectAllChildren(target);
      setStatus(
        `コピーできませんでした。${what}を選択したので、Ctrl+C（Mac は ⌘+C）でコピーしてください。`,
      );
    }
  }

  return (
    <div className={className}>
      {hydrated ? (
        <Button
          type="button"
          color={primary ? 'black' : 'white'}
          width="auto"
          height={primary ? 44 : 40}
          onClick={() => void copy()}
        >
          {what}をコピー
        </Button>
      ) : null}
      {/* Present from the start, so that what it says later is announced. */}
      <p role="status" className={statusClassName}>
        {status}
      </p>
    </div>
  );
}
