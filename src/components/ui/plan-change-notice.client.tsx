'use client';

import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  use,
  useCallback,
  useMemo,
  useState,
} from 'react';
import type { CustomerPortalEvent } from './plan-change-notice-content';

// Only subscribers changing plan ever see the notice: its code loads when it is first opened,
// not with every page.
const PlanChangeNoticeModal = lazy(() =>
  import('./plan-change-notice-modal.client').then((m) => ({ default: m.PlanChangeNoticeModal })),
);

export type PlanChangeNoticeContextValue = {
  open: boolean;
  /** Opens the notice; its primary button will run `customerPortalEvent`. */
  openPlanChangeNotice: (customerPortalEvent: CustomerPortalEvent) => void;
  closePlanChangeNotice: () => void;
};

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
      {state.customerPortalEvent ? (
        <Suspense fallback={null}>
          <PlanChangeNoticeModal
            open={state.open}
            customerPortalEvent={state.customerPortalEvent}
            onClose={closePlanChangeNotice}
          />
        </Suspense>
      ) : null}
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
