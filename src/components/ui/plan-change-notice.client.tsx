'use client';

import {
  createContext,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Button } from './button';
import { Modal } from './modal.client';
import styles from './plan-change-notice.module.css';

export type CustomerPortalEvent = () => void | Promise<void>;

export type PlanChangeNoticeContextValue = {
  open: boolean;
  /** Opens the notice; its primary button will run `customerPortalEvent`. */
  openPlanChangeNotice: (customerPortalEvent: CustomerPortalEvent) => void;
  closePlanChangeNotice: () => void;
};

export const PLAN_CHANGE_NOTICE_HEADING = 'プラン変更にともなう注意事項';

/** SPEC §2: the three things a subscriber must know before changing plan. */
export const PLAN_CHANGE_NOTICE_STATEMENTS = [
  'プランはいつでも変更できます。',
  '有料プランから別の有料プランへの変更は、現在のプランの期間の終了を待たず、すぐに反映されます。',
  '変更により利用できなくなった期間の料金は返金されません。',
] as const;

const PlanChangeNoticeContext = createContext<PlanChangeNoticeContextValue | null>(null);

type NoticeState = { open: boolean; customerPortalEvent: CustomerPortalEvent | null };

export function PlanChangeNoticeProvider({ children }: { children: ReactNode }) {
  // Kept in one object: a bare function given to a state setter would be called as an updater.
  const [state, setState] = useState<NoticeState>({ open: false, customerPortalEvent: null });

  const openPlanChangeNotice = useCallback((customerPortalEvent: CustomerPortalEvent) => {
    setState({ open: true, customerPortalEvent });
  }, []);
  const closePlanChangeNotice = useCallback(() => {
    setState((previous) => ({ ...previous, open: false }));
  }, []);
  const value = useMemo(
    () => ({ open: state.open, openPlanChangeNotice, closePlanChangeNotice }),
    [state.open, openPlanChangeNotice, closePlanChangeNotice],
  );

  return (
    <PlanChangeNoticeContext value={value}>
      {children}
      <PlanChangeNoticeModal
        open={state.open}
        customerPortalEvent={state.customerPortalEvent}
        onClose={closePlanChangeNotice}
      />
    </PlanChangeNoticeContext>
  );
}

export function usePlanChangeNotice(): PlanChangeNoticeContextValue {
  const value = use(PlanChangeNoticeContext);
  if (!value) {
    throw new Error('usePlanChangeNotice must be used inside <PlanChangeNoticeProvider>.');
  }
  return value;
}

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
      // The event reports its own failure (DESIGN: a snackbar message); the notice stays open so
      // the visitor can try again.
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
