'use client';

import { useEffect } from 'react';
import { useSnackbar } from '@/components/ui/snackbar-context.client';
import { listen } from '@/components/ui/listen';

/** Tells the reader when the connection drops (reading may fail) and when it is back. */
export function ConnectivityNotice() {
  const { showSnackbar } = useSnackbar();

  useEffect(() => {
    const offline = () =>
      showSnackbar('インターネットに接続されていません。接続を確認してください。', 'warning');
    const online = () => showSnackbar('インターネットに再接続しました。', 'success');
    return listen(window, { offline, online });
  }, [showSnackbar]);

  return null;
}
