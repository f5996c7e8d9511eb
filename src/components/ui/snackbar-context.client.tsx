'use client';

import { createContext, type ReactNode, use, useCallback, useMemo, useState } from 'react';
import { Snackbar, type SnackbarSeverity } from './snackbar.client';

/** SPEC §2: the shared context defaults to error (the component on its own defaults to info). */
export const SNACKBAR_CONTEXT_DEFAULT_SEVERITY: SnackbarSeverity = 'error';

export type SnackbarContextValue = {
  showSnackbar: (message: string, severity?: SnackbarSeverity) => void;
  closeSnackbar: () => void;
};

const SnackbarContext = createContext<SnackbarContextValue | null>(null);

type SnackbarState = {
  /** Bumped on every show, so the same message shown twice still restarts the timer. */
  id: number;
  message: string;
  severity: SnackbarSeverity;
};

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SnackbarState>({
    id: 0,
    message: '',
    severity: SNACKBAR_CONTEXT_DEFAULT_SEVERITY,
  });

  const showSnackbar = useCallback(
    (message: string, severity: SnackbarSeverity = SNACKBAR_CONTEXT_DEFAULT_SEVERITY) => {
      setState((previous) => ({ id: previous.id + 1, message, severity }));
    },
    [],
  );
  const closeSnackbar = useCallback(() => {
    setState((previous) => ({ ...previous, message: '' }));
  }, []);
  const value = useMemo(() => ({ showSnackbar, closeSnackbar }), [showSnackbar, closeSnackbar]);

  return (
    <SnackbarContext value={value}>
      {children}
      <Snackbar
        key={state.id}
        message={state.message}
        severity={state.severity}
        onClose={closeSnackbar}
      />
    </SnackbarContext>
  );
}

export function useSnackbar(): SnackbarContextValue {
  const value = use(SnackbarContext);
  if (!value) throw new Error('useSnackbar must be used inside <SnackbarProvider>.');
  return value;
}
