// @vitest-environment jsdom
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CustomerPortalEvent } from './plan-change-notice-content';
import { PlanChangeNoticeProvider, usePlanChangeNotice } from './plan-change-notice.client';

function Opener({ event }: { event: CustomerPortalEvent }) {
  const { open, openPlanChangeNotice } = usePlanChangeNotice();
  return (
    <>
      <button type="button" onClick={() => openPlanChangeNotice(event)}>
        プラン変更
      </button>
      <output aria-label="状態">{open ? 'open' : 'closed'}</output>
    </>
  );
}

function setup(event: CustomerPortalEvent = vi.fn()) {
  const user = userEvent.setup();
  render(
    <PlanChangeNoticeProvider>
      <Opener event={event} />
    </PlanChangeNoticeProvider>,
  );
  return { user, opener: screen.getByRole('button', { name: 'プラン変更' }) };
}

/** The notice's code loads on first opening: wait for the dialog. */
async function openNotice(user: ReturnType<typeof userEvent.setup>, opener: HTMLElement) {
  await user.click(opener);
  await screen.findByRole('dialog');
}

function deferred() {
  let resolve!: () => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const primaryName = 'プランを確認・変更する';

describe('PlanChangeNoticeProvider / usePlanChangeNotice', () => {
  it('is closed until opened, then shows the heading and the three statements', async () => {
    const { user, opener } = setup();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status', { name: '状態' })).toHaveTextContent('closed');

    await openNotice(user, opener);
    const dialog = screen.getByRole('dialog', { name: 'プラン変更にともなう注意事項' });
    expect(screen.getByRole('status', { name: '状態' })).toHaveTextContent('open');
    const items = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'プランはいつでも変更できます。',
      '有料プランから別の有料プランへの変更は、現在のプランの期間の終了を待たず、すぐに反映されます。',
      '変更により利用できなくなった期間の料金は返金されません。',
    ]);
    expect(within(dialog).getByRole('button', { name: primaryName })).toHaveStyle({
      backgroundColor: '#ebff00',
    });
  });

  // The notice's own 閉じる and the dialog's ×, which a screen reader also hears as 閉じる.
  it.each([0, 1])('closes from its close button %i and returns focus', async (index) => {
    const event = vi.fn();
    const { user, opener } = setup(event);
    await openNotice(user, opener);
    const buttons = screen.getAllByRole('button', { name: '閉じる' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[index]!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status', { name: '状態' })).toHaveTextContent('closed');
    expect(opener).toHaveFocus();
    expect(event).not.toHaveBeenCalled();
  });

  it('runs the customer-portal event and closes when it returns synchronously', async () => {
    const event = vi.fn();
    const { user, opener } = setup(event);
    await openNotice(user, opener);
    await user.click(screen.getByRole('button', { name: primaryName }));
    expect(event).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows loading while the returned promise is pending and closes once it resolves', async () => {
    const call = deferred();
    const event = vi.fn(() => call.promise);
    const { user, opener } = setup(event);
    await openNotice(user, opener);
    const primary = screen.getByRole('button', { name: primaryName });
    await user.click(primary);

    expect(event).toHaveBeenCalledTimes(1);
    expect(primary).toHaveAttribute('aria-busy', 'true');
    expect(primary).toBeDisabled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await act(async () => {
      call.resolve();
      await call.promise;
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays open and stops loading when the promise rejects', async () => {
    const call = deferred();
    const { user, opener } = setup(() => call.promise);
    await openNotice(user, opener);
    const primary = screen.getByRole('button', { name: primaryName });
    await user.click(primary);

    await act(async () => {
      call.reject(new Error('portal unavailable'));
      await call.promise.catch(() => {});
    });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(primary).not.toHaveAttribute('aria-busy');
    expect(primary).toBeEnabled();
  });

  it('does not close a reopened notice when an earlier call resolves late', async () => {
    const call = deferred();
    const { user, opener } = setup(() => call.promise);
    await openNotice(user, opener);
    await user.click(screen.getByRole('button', { name: primaryName }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await openNotice(user, opener);
    expect(screen.getByRole('button', { name: primaryName })).not.toHaveAttribute('aria-busy');
    await act(async () => {
      call.resolve();
      await call.promise;
    });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('throws a clear error outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Opener event={() => {}} />)).toThrow(/PlanChangeNoticeProvider/);
    vi.mocked(console.error).mockRestore();
  });
});
