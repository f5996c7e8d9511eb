'use client';

import { useCallback } from 'react';
import { Button, type ButtonColor } from '@/components/ui/button';
import { useLeavingState } from '@/components/ui/use-leaving-state.client';
import { usePlanChangeNotice } from '@/components/ui/plan-change-notice.client';
import { useSnackbar } from '@/components/ui/snackbar-context.client';
import { PORTAL_ERROR_MESSAGE } from './billing-format';
import styles from './billing.module.css';

/** SPEC §9: the customer-portal button is 270 px wide (never wider than a phone's column). */
export const PORTAL_BUTTON_WIDTH = 270;

export const PORTAL_ENDPOINT = '/api/create-customer-portal';

type PortalAnswer = { ok: true; url: string } | { ok: false; message: string };

/** Statuses whose message from the server says what to do (sign in again, not yours, wait). */
const TOLD_STATUSES = new Set([401, 403, 429]);

const isWebUrl = (value: unknown): value is string => {
  if (typeof value !== 'string' || !value) return false;
  try {
    const { protocol } = new URL(value, window.location.href);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

/** SPEC §7: POST {customerId}; the answer's url is the portal. */
async function requestPortal(customerId: string): Promise<PortalAnswer> {
  try {
    const response = await fetch(PORTAL_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ customerId }),
      cache: 'no-store',
    });
    const body = (await response.json().catch(() => null)) as {
      url?: unknown;
      message?: unknown;
    } | null;
    if (response.ok && isWebUrl(body?.url)) return { ok: true, url: body.url };
    if (TOLD_STATUSES.has(response.status) && typeof body?.message === 'string' && body.message)
      return { ok: false, message: body.message };
  } catch {
    // A network failure: the generic message below.
  }
  return { ok: false, message: PORTAL_ERROR_MESSAGE };
}

export type CustomerPortalButtonProps = {
  /** The reader's provider customer (their stripeId). */
  customerId: string;
  label?: string;
  color?: ButtonColor;
  /**
   * A paid reader changing plan: the plan-change notice (SPEC §2) opens first, and its
   * 「プランを確認・変更する」 continues to the portal.
   */
  confirmPlanChange?: boolean;
  /** Says what the button is for, to screen readers (e.g. the plan of its card). */
  describedBy?: string;
};

/**
 * The customer-portal button (SPEC §2, §7): 270 px wide, a spinner while the call runs, then
 * the browser goes to the provider's portal. A failure stops the spinner and says so in the
 * snackbar (a deliberate deviation from SPEC §8: docs/decisions/000-design-baseline.md,
 * "Customer-portal failure"). It needs JavaScript by nature.
 */
export function CustomerPortalButton({
  customerId,
  label = 'プランの管理',
  color = 'yellow',
  confirmPlanChange = false,
  describedBy,
}: CustomerPortalButtonProps) {
  const { showSnackbar } = useSnackbar();
  const { openPlanChangeNotice } = usePlanChangeNotice();
  // Back from the portal through the browser's page cache: usable again.
  const [pending, setPending] = useLeavingState();

  /** Opens the portal; on failure tells the reader and rejects (the notice then stays open). */
  const openPortal = useCallback(async () => {
    setPending(true);
    const answer = await requestPortal(customerId);
    if (answer.ok) {
      // The spinner stays until the portal's page replaces this one.
      window.location.assign(answer.url);
      return;
    }
    setPending(false);
    showSnackbar(answer.message, 'error');
    throw new Error(answer.message);
  }, [customerId, showSnackbar, setPending]);

  const onClick = () => {
    if (pending) return;
    if (confirmPlanChange) {
      openPlanChangeNotice(openPortal);
      return;
    }
    openPortal().catch(() => {
      // Already told in the snackbar.
    });
  };

  return (
    <div className={styles.portal}>
      <Button
        color={color}
        width={PORTAL_BUTTON_WIDTH}
        height={48}
        loading={pending}
        onClick={onClick}
        aria-describedby={describedBy}
        className={styles.portalButton}
      >
        {label}
      </Button>
      <noscript>
        <p className={styles.noscript}>
          「{label}」を開くには、ブラウザの JavaScript を有効にしてください。
        </p>
      </noscript>
    </div>
  );
}
