'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { Button } from './button';
import { Modal } from './modal.client';
import {
  type CustomerPortalEvent,
  PLAN_CHANGE_NOTICE_HEADING,
  PLAN_CHANGE_NOTICE_STATEMENTS,
} from './plan-change-notice-content';
import styles from './plan-change-notice.module.css';

export type PlanChangeNoticeModalProps = {
  open: boolean;
  customerPortalEvent: CustomerPortalEvent | null;
  onClose: () => void;
};

export function PlanChangeNoticeModal({
  open,
  customerPortalEvent,
  onClose,
}: PlanChangeNoticeModalProps) {
  const headingId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={headingId}>
      <NoticeContent
        headingId={headingId}
        customerPortalEvent={customerPortalEvent}
        onClose={onClose}
      />
    </Modal>
  );
}

/** Mounted only while open, so a pending state never survives into the next opening. */
function NoticeContent({
  headingId,
  customerPortalEvent,
  onClose,
}: {
  headingId: string;
  customerPortalEvent: CustomerPortalEvent | null;
  onClose: () => void;
}) {
  const [pending, setPending] = useState(false);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const confirm = async () => {
    if (!customerPortalEvent) return;
    setPending(true);
    try {
      await customerPortalEvent();
    } catch {
      // The event reports its own failure (a snackbar message, as
      // docs/decisions/000-design-baseline.md "Customer-portal failure" says); the notice stays
      // open so the visitor can try again.
      if (mounted.current) setPending(false);
      return;
    }
    // Closed and perhaps reopened meanwhile: this result no longer belongs to what is on screen.
    if (!mounted.current) return;
    setPending(false);
    onClose();
  };

  return (
    <>
      <h2 id={headingId} className={styles.heading}>
        {PLAN_CHANGE_NOTICE_HEADING}
      </h2>
      <ul className={styles.notes}>
        {PLAN_CHANGE_NOTICE_STATEMENTS.map((statement) => (
          <li key={statement}>{statement}</li>
        ))}
      </ul>
      <div className={styles.actions}>
        <Button
          color="yellow"
          fullWidth
          loading={pending}
          disabled={!customerPortalEvent}
          onClick={() => void confirm()}
        >
          プランを確認・変更する
        </Button>
        <Button color="white" fullWidth onClick={onClose}>
          閉じる
        </Button>
      </div>
    </>
  );
}
