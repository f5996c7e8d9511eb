'use client';

import type { Role } from '@/lib/identity/roles';
import { type ReactNode, createContext, useCallback, useContext, useEffect, useState } from 'react';
import { type AuthState, LOADING_AUTH_STATE, SIGNED_OUT_AUTH_STATE } from '@/lib/auth-state';
import { Spinner } from '@/components/ui/spinner';

/**
 * The visitor's auth state on the client (SPEC §4). Pages are rendered per audience and may be
 * cached, so the state comes from /api/me after hydration. It is loaded again whenever the
 * login state changes: in this tab a sign-in or sign-out ends with a full page load; other tabs
 * hear about it on a BroadcastChannel. A failed load counts as signed out (SPEC §8).
 */

export type ClientAuthState = AuthState & { role: Role | null };

const LOADING: ClientAuthState = { ...LOADING_AUTH_STATE, role: null };
const SIGNED_OUT: ClientAuthState = { ...SIGNED_OUT_AUTH_STATE, role: null };
const CHANNEL = 'axis-auth';

const AuthStateContext = createContext<ClientAuthState>(LOADING);

/** Tells the site's other tabs that the login state changed (after sign-in or sign-out). */
export function announceLoginChange(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

export function AuthStateProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ClientAuthState>(LOADING);

  const load = useCallback(async (signal?: AbortSignal) => {
    setState((current) => ({ ...current, isLoading: true }));
    try {
      const response = await fetch('/api/me', { cache: 'no-store', signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const loaded = (await response.json()) as ClientAuthState;
      setState({ ...loaded, isLoading: false });
    } catch (error) {
      if (signal?.aborted) return;
      console.warn('[auth] could not load the auth state:', error);
      setState(SIGNED_OUT);
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    if (typeof BroadcastChannel === 'undefined') return () => controller.abort();
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void load();
    return () => {
      controller.abort();
      channel.close();
    };
  }, [load]);

  return <AuthStateContext.Provider value={state}>{children}</AuthStateContext.Provider>;
}

export function useAuthState(): ClientAuthState {
  return useContext(AuthStateContext);
}

/**
 * SPEC §2 page wrapper, for content that depends on the client's user state (pages rendered on
 * the server for the viewer already know it): the centred full-height spinner until the state
 * has loaded, then the page.
 */
export function PageWrapper({ children }: { children: ReactNode }) {
  const { isLoading } = useAuthState();
  return isLoading ? <Spinner fullHeight label="読み込み中" /> : <>{children}</>;
}
