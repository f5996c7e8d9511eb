// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SNACKBAR_AUTO_HIDE_MS, type SnackbarSeverity } from './snackbar.client';
import { advance, restoreRealTimersAfterEach } from '@test-support/fake-timers';
import { SnackbarProvider, useSnackbar } from './snackbar-context.client';

function Trigger({ message, severity }: { message: string; severity?: SnackbarSeverity }) {
  const { showSnackbar, closeSnackbar } = useSnackbar();
  return (
    <>
      <button type="button" onClick={() => showSnackbar(message, severity)}>
        表示
      </button>
      <button type="button" onClick={closeSnackbar}>
        消す
      </button>
    </>
  );
}

describe('SnackbarProvider / useSnackbar', () => {
  restoreRealTimersAfterEach();

  it('shows nothing until showSnackbar is called', () => {
    render(
      <SnackbarProvider>
        <Trigger message="失敗しました" />
      </SnackbarProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('defaults to the error severity (role=alert)', async () => {
    render(
      <SnackbarProvider>
        <Trigger message="失敗しました" />
      </SnackbarProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: '表示' }));
    expect(screen.getByRole('alert')).toHaveTextContent('失敗しました');
    expect(screen.getByRole('alert').parentElement).toHaveAttribute('data-severity', 'error');
  });

  it('uses the severity it is given', async () => {
    render(
      <SnackbarProvider>
        <Trigger message="保存しました" severity="success" />
      </SnackbarProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: '表示' }));
    expect(screen.getByRole('status')).toHaveTextContent('保存しました');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('closes with closeSnackbar and with the 閉じる button', async () => {
    const user = userEvent.setup();
    render(
      <SnackbarProvider>
        <Trigger message="失敗しました" />
      </SnackbarProvider>,
    );
    await user.click(screen.getByRole('button', { name: '表示' }));
    await user.click(screen.getByRole('button', { name: '消す' }));
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: '表示' }));
    await user.click(screen.getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hides after 3000 ms, and showing the same message again restarts the timer', () => {
    vi.useFakeTimers();
    render(
      <SnackbarProvider>
        <Trigger message="失敗しました" />
      </SnackbarProvider>,
    );
    const show = screen.getByRole('button', { name: '表示' });
    // fireEvent, not user-event: its async wrapper waits on a timer that never fires here.
    fireEvent.click(show);
    advance(2000);
    fireEvent.click(show);
    advance(2000);
    expect(screen.getByRole('alert')).toHaveTextContent('失敗しました');
    advance(SNACKBAR_AUTO_HIDE_MS - 2000);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('throws a clear error outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Trigger message="x" />)).toThrow(/SnackbarProvider/);
    vi.mocked(console.error).mockRestore();
  });
});
