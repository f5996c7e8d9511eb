'use client';

import { useEffect } from 'react';
import { useSnackbar } from '@/components/ui/snackbar-context.client';

/** Tells the reader when the connection drops (reading may fail) and when it is back. */
export function ConnectivityNotice() {
  const { showSnackbar } = useSnackbar();

  useEffect(() => {
    const offline = () =>
      showSnackbar('インターネットに接続されていません。接続を確認してください。', 'warning');
    const online = () => showSnackbar('インターネットに再接続しました。', 'success');
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [showSnackbar]);

  return null;
}
