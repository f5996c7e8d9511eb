// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { advance, expectCalledOnceAt, restoreRealTimersAfterEach } from '@test-support/fake-timers';
import { SNACKBAR_AUTO_HIDE_MS, Snackbar, type SnackbarSeverity } from './snackbar.client';

/** A snackbar on fake time; its onClose spy. */
function renderTimed() {
  vi.useFakeTimers();
  const onClose = vi.fn();
  render(<Snackbar message="保存しました" onClose={onClose} />);
  return onClose;
}

describe('Snackbar', () => {
  restoreRealTimersAfterEach();

  it('renders nothing while the message is empty', () => {
    const { container } = render(<Snackbar message="" onClose={() => {}} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('defaults to the info severity, announced politely as a status', () => {
    render(<Snackbar message="保存しました" onClose={() => {}} />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('保存しました');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status.parentElement).toHaveAttribute('data-severity', 'info');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each<[SnackbarSeverity, 'alert' | 'status']>([
    ['error', 'alert'],
    ['warning', 'alert'],
    ['info', 'status'],
    ['success', 'status'],
  ])('uses role=%s → %s', (severity, role) => {
    render(<Snackbar message="メッセージ" severity={severity} onClose={() => {}} />);
    expect(screen.getByRole(role)).toHaveTextContent('メッセージ');
    expect(screen.getByRole(role).parentElement).toHaveAttribute('data-severity', severity);
  });

  it('says the severity in words, not only by colour', () => {
    render(<Snackbar message="通信に失敗しました" severity="error" onClose={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('エラー: 通信に失敗しました');
  });

  it('calls onClose from the 閉じる button', async () => {
    const onClose = vi.fn();
    render(<Snackbar message="保存しました" onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: '閉じる' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('hides itself after exactly 3000 ms', () => {
    vi.useFakeTimers();
    expect(SNACKBAR_AUTO_HIDE_MS).toBe(3000);
    function Harness() {
      const [message, setMessage] = useState('保存しました');
      return <Snackbar message={message} onClose={() => setMessage('')} />;
    }
    render(<Harness />);
    advance(2999);
    expect(screen.getByRole('status')).toHaveTextContent('保存しました');
    advance(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('restarts the timer when the message changes', () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    const { rerender } = render(<Snackbar message="一件目" onClose={onClose} />);
    advance(2000);
    rerender(<Snackbar message="二件目" onClose={onClose} />);
    expectCalledOnceAt(onClose, 3000);
  });

  it('does not restart the timer when only the onClose function changes', () => {
    vi.useFakeTimers();
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = render(<Snackbar message="保存しました" onClose={first} />);
    advance(2000);
    rerender(<Snackbar message="保存しました" onClose={second} />);
    advance(1000);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });

  // Synchronous events here: user-event's async wrapper waits on a real timer that fake timers
  // never fire under Vitest.
  it('waits while hovered and starts the full delay again when the pointer leaves', () => {
    const onClose = renderTimed();
    const snackbar = screen.getByRole('status').parentElement;
    if (!snackbar) throw new Error('no snackbar');

    fireEvent.pointerEnter(snackbar);
    advance(10_000);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.pointerLeave(snackbar);
    expectCalledOnceAt(onClose, 3000);
  });

  it('waits while its close button has focus', () => {
    const onClose = renderTimed();
    const close = screen.getByRole('button', { name: '閉じる' });
    act(() => {
      close.focus();
    });
    advance(10_000);
    expect(onClose).not.toHaveBeenCalled();

    act(() => {
      close.blur();
    });
    advance(SNACKBAR_AUTO_HIDE_MS);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
