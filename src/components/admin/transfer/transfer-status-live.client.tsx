'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { type TransferStatus, isRunning, transferPaths } from '@/lib/transfer/status';
import { TransferStatusPanel } from './transfer-status-panel';

const POLL_MS = 1500;

type Props = {
  initial: TransferStatus;
  endpointLabels: Record<string, string>;
};

/**
 * The status panel kept up to date while an import runs: it asks the small status route every
 * second and a half (without JavaScript the page refreshes itself instead), and once the
 * import ends it refreshes the page so the forms see the instance as it now is.
 */
export function TransferStatusLive({ initial, endpointLabels }: Props) {
  const [status, setStatus] = useState(initial);
  const [tick, setTick] = useState(0);
  const router = useRouter();
  const running = isRunning(status);

  useEffect(() => {
    if (!running) return;
    let cancelled = false;
    const poll = async () => {
      try {
        const response = await fetch(transferPaths.status, {
          headers: { accept: 'application/json' },
          cache: 'no-store',
        });
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { status: TransferStatus | null };
        if (cancelled || !body.status) return;
        setStatus(body.status);
        if (!isRunning(body.status)) router.refresh();
      } catch {
        // A missed answer is tried again at the next tick.
      }
      if (!cancelled) setTick((t) => t + 1);
    };
    const timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [running, tick, router]);

  return <TransferStatusPanel status={status} endpointLabels={endpointLabels} />;
}
