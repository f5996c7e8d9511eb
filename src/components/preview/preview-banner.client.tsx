'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useSnackbar } from '@/components/ui/snackbar-context.client';
import styles from './preview-banner.module.css';

/** SPEC §2 "Preview mode": the banner and its exit button. */
export function PreviewBanner() {
  const router = useRouter();
  const { showSnackbar } = useSnackbar();
  const [leaving, setLeaving] = useState(false);

  async function exit() {
    setLeaving(true);
    try {
      const response = await fetch('/api/exit-preview', { cache: 'no-store' });
      if (response.ok) {
        router.push('/');
        router.refresh();
        return;
      }
      showSnackbar('プレビューモードを終了できませんでした。もう一度お試しください。');
    } catch {
      showSnackbar('通信できませんでした。接続を確認して、もう一度お試しください。');
    }
    setLeaving(false);
  }

  return (
    <div className={styles.banner} role="region" aria-label="プレビューモード">
      <p className={styles.text}>プレビューモード</p>
      <button
        type="button"
        className={styles.button}
        onClick={() => void exit()}
        disabled={leaving}
        aria-busy={leaving}
      >
        プレビューモードを終了
      </button>
    </div>
  );
}
