// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlanChangeNoticeProvider } from '@/components/ui/plan-change-notice.client';
import { SnackbarProvider } from '@/components/ui/snackbar-context.client';
import { PORTAL_ERROR_MESSAGE } from './billing-format';
import { CustomerPortalButton } from './customer-portal-button.client';

function deferredFetch() {
  let resolve!: (response: Response) => void;
  let reject!: (error: unknown) => void;
  const pending = new Promise<Response>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => pending);
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, resolve, reject };
}

/** Settles the call and lets the component take the answer. */
async function settle(action: () => void) {
  await act(async () => {
    action();
    await Promise.resolve();
  });
}

let assign: ReturnType<typeof vi.fn>;

beforeEach(() => {
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, href: window.location.href, assign });
});

afterEach(() => vi.unstubAllGlobals());

/** The plan-change button, pressed: the notice it opens before the portal. */
async function openPlanChangeNotice() {
  renderButton({ label: 'このプランに変更する', confirmPlanChange: true });
  await userEvent.click(screen.getByRole('button', { name: 'このプランに変更する' }));
  return screen.findByRole('dialog', { name: 'プラン変更にともなう注意事項' });
}

function renderButton(props: Partial<Parameters<typeof CustomerPortalButton>[0]> = {}) {
  return render(
    <SnackbarProvider>
      <PlanChangeNoticeProvider>
        <CustomerPortalButton customerId="cus_123" {...props} />
      </PlanChangeNoticeProvider>
    </SnackbarProvider>,
  );
}

describe('CustomerPortalButton', () => {
  it('is 270 px wide and labelled 「プランの管理」', () => {
    renderButton();
    const button = screen.getByRole('button', { name: 'プランの管理' });
    expect(button).toHaveStyle({ width: '270px' });
    expect(button).toBeEnabled();
  });

  it('posts {customerId}, spins while the call runs, then goes to the portal', async () => {
    const { fetchMock, resolve } = deferredFetch();
    renderButton();
    const button = screen.getByRole('button', { name: 'プランの管理' });
    await userEvent.click(button);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/create-customer-portal');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ customerId: 'cus_123' });
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toBeDisabled();

    await settle(() => resolve(Response.json({ url: 'https://billing.example/portal/bps_1' })));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://billing.example/portal/bps_1'),
    );
    // Still spinning while the portal's page loads.
    expect(button).toHaveAttribute('aria-busy', 'true');
  });

  it('stops the spinner and shows the Japanese error in the snackbar when the call fails', async () => {
    const { resolve } = deferredFetch();
    renderButton();
    const button = screen.getByRole('button', { name: 'プランの管理' });
    await userEvent.click(button);
    await settle(() => resolve(Response.json({ ok: false, message: 'Internal' }, { status: 500 })));
    expect(await screen.findByText(PORTAL_ERROR_MESSAGE)).toBeInTheDocument();
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the generic message when the network fails', async () => {
    const { reject } = deferredFetch();
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'プランの管理' }));
    await settle(() => reject(new TypeError('Failed to fetch')));
    expect(await screen.findByText(PORTAL_ERROR_MESSAGE)).toBeInTheDocument();
  });

  it.each([
    [403, 'この操作を行う権限がありません。'],
    [401, 'ログインの有効期限が切れました。もう一度ログインしてください。'],
  ])('shows the server’s message for %i', async (status, message) => {
    const { resolve } = deferredFetch();
    renderButton();
    const button = screen.getByRole('button', { name: 'プランの管理' });
    await userEvent.click(button);
    await settle(() => resolve(Response.json({ ok: false, message }, { status })));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it('never navigates to an answer that is not a web address', async () => {
    const { resolve } = deferredFetch();
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'プランの管理' }));
    await settle(() => resolve(Response.json({ url: 'javascript:alert(1)' })));
    expect(await screen.findByText(PORTAL_ERROR_MESSAGE)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('opens the plan-change notice first; its primary button continues to the portal', async () => {
    const { fetchMock, resolve } = deferredFetch();
    const dialog = await openPlanChangeNotice();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.click(within(dialog).getByRole('button', { name: 'プランを確認・変更する' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await settle(() => resolve(Response.json({ url: 'https://billing.example/portal/bps_2' })));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://billing.example/portal/bps_2'),
    );
  });

  it('閉じる closes the notice without calling the portal', async () => {
    const { fetchMock } = deferredFetch();
    const dialog = await openPlanChangeNotice();
    // The notice's own 閉じる (the dialog's × is named 閉じる too, and comes first).
    await userEvent.click(within(dialog).getAllByRole('button', { name: '閉じる' }).at(-1)!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps the notice open and says why when the portal cannot be opened from it', async () => {
    const { resolve } = deferredFetch();
    const dialog = await openPlanChangeNotice();
    await userEvent.click(within(dialog).getByRole('button', { name: 'プランを確認・変更する' }));
    await settle(() => resolve(new Response('oops', { status: 502 })));
    expect(await screen.findByText(PORTAL_ERROR_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'プランを確認・変更する' }),
    ).toBeEnabled();
  });
});
