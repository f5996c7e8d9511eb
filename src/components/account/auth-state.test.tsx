// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEMBER_AUTH_STATE } from '@test-support/auth-state';
import { AuthStateProvider, PageWrapper, useAuthState } from './auth-state.client';

function Probe() {
  const state = useAuthState();
  return (
    <p>
      {state.isLoading ? 'loading' : state.user ? `user:${state.user.displayName}` : 'anonymous'}
      {state.isPaidUser ? ' paid' : ''}
    </p>
  );
}

function respond(body: unknown, ok = true) {
  let resolve!: (value: Response) => void;
  const pending = new Promise<Response>((r) => (resolve = r));
  vi.stubGlobal(
    'fetch',
    vi.fn(() => pending),
  );
  return () =>
    act(async () => {
      resolve(new Response(JSON.stringify(body), { status: ok ? 200 : 500 }));
      await pending;
    });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AuthStateProvider and PageWrapper', () => {
  it('shows the full-height spinner until the state loads, then the page', async () => {
    const finish = respond({ ...MEMBER_AUTH_STATE, isPaidUser: true });
    render(
      <AuthStateProvider>
        <PageWrapper>
          <Probe />
        </PageWrapper>
      </AuthStateProvider>,
    );
    expect(screen.getByRole('status', { name: '読み込み中' })).toHaveAttribute('data-full-height');
    expect(screen.queryByText(/user:/)).toBeNull();
    await finish();
    expect(screen.getByText('user:花子 paid')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('treats a failed load as signed out (SPEC §8: the error is ignored)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const finish = respond({ message: 'down' }, false);
    render(
      <AuthStateProvider>
        <Probe />
      </AuthStateProvider>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    await finish();
    expect(screen.getByText('anonymous')).toBeInTheDocument();
  });
});
