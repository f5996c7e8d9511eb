'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useSnackbar } from '@/components/ui/snackbar-context.client';
import styles from './preview-banner.module.css';

/**
 * SPEC §2 "Preview mode": the banner and its exit button. `visitor`: the draft is shown as a
 * signed-out visitor gets it (「訪問者に見える部分」, docs/decisions/029-divider-is-the-lead.md).
 */
export function PreviewBanner({ visitor = false }: { visitor?: boolean }) {
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
      <p className={styles.text}>
        {visitor
          ? 'プレビューモード：訪問者に見える部分（ログインしていない人が読める範囲）を表示しています'
          : 'プレビューモード'}
      </p>
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
