// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { Modal } from './modal.client';

/** An open modal holding 「本文」; its onClose spy. */
function renderOpenModal() {
  const onClose = vi.fn();
  render(
    <Modal open onClose={onClose} label="お知らせ">
      <p>本文</p>
    </Modal>,
  );
  return onClose;
}

function Harness({ initialOpen = false }: { initialOpen?: boolean }) {
  const [open, setOpen] = useState(initialOpen);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        開く
      </button>
      <Modal open={open} onClose={() => setOpen(false)} labelledBy="modal-title">
        <h2 id="modal-title">お知らせ</h2>
        <label>
          名前
          <input />
        </label>
        <button type="button">了解</button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('renders nothing when closed', () => {
    render(
      <Modal open={false} onClose={() => {}} label="お知らせ">
        本文
      </Modal>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('本文')).toBeNull();
  });

  it('renders a modal dialog, named by its heading, through a portal to document.body', () => {
    const { container } = render(
      <Modal open onClose={() => {}} labelledBy="title">
        <h2 id="title">プランについて</h2>
        <p>本文</p>
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'プランについて' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(container).not.toContainElement(dialog);
    expect(dialog.parentElement?.parentElement).toBe(document.body);
  });

  it('uses `label` as the accessible name when there is no heading', () => {
    render(
      <Modal open onClose={() => {}} label="画像の拡大">
        <p>本文</p>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: '画像の拡大' })).toBeInTheDocument();
  });

  it('calls onClose from the button labelled 閉じる', async () => {
    const onClose = renderOpenModal();
    await userEvent.click(screen.getByRole('button', { name: '閉じる' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('calls onClose when the overlay is clicked but not when the dialog is clicked', async () => {
    const onClose = renderOpenModal();
    const dialog = screen.getByRole('dialog');
    await userEvent.click(screen.getByText('本文'));
    await userEvent.click(dialog);
    expect(onClose).not.toHaveBeenCalled();

    // A bare click event (no pointerdown before it) inside the dialog must not close it either.
    fireEvent.click(screen.getByText('本文'));
    expect(onClose).not.toHaveBeenCalled();

    const overlay = dialog.parentElement;
    if (!overlay) throw new Error('dialog has no overlay');
    await userEvent.click(overlay);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('does not close when a press starts in the dialog and ends on the overlay', async () => {
    const onClose = renderOpenModal();
    const text = screen.getByText('本文');
    const overlay = screen.getByRole('dialog').parentElement;
    if (!overlay) throw new Error('dialog has no overlay');
    const user = userEvent.setup();
    await user.pointer([
      { keys: '[MouseLeft>]', target: text },
      { target: overlay },
      { keys: '[/MouseLeft]' },
    ]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape, but not while an IME composition is in progress', async () => {
    const onClose = vi.fn();
    render(
      <Modal open onClose={onClose} label="お知らせ">
        <input aria-label="検索" />
      </Modal>,
    );
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape', isComposing: true });
    expect(onClose).not.toHaveBeenCalled();

    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('moves focus into the dialog and traps Tab and Shift+Tab inside it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: '開く' }));

    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveFocus();

    const close = screen.getByRole('button', { name: '閉じる' });
    const input = screen.getByRole('textbox', { name: '名前' });
    const ok = screen.getByRole('button', { name: '了解' });

    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(input).toHaveFocus();
    await user.tab();
    expect(ok).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();

    await user.tab({ shift: true });
    expect(ok).toHaveFocus();
    await user.tab({ shift: true });
    expect(input).toHaveFocus();
  });

  it('brings focus back inside when it has been lost to <body>', async () => {
    const user = userEvent.setup();
    render(<Harness initialOpen />);
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(document.body).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: '閉じる' })).toHaveFocus();
  });

  it('focuses initialFocusRef when given', () => {
    function WithInitialFocus() {
      const ref = useRef<HTMLButtonElement>(null);
      return (
        <Modal open onClose={() => {}} label="確認" initialFocusRef={ref}>
          <button type="button">いいえ</button>
          <button type="button" ref={ref}>
            はい
          </button>
        </Modal>
      );
    }
    render(<WithInitialFocus />);
    expect(screen.getByRole('button', { name: 'はい' })).toHaveFocus();
  });

  it('returns focus to the element that opened it when it closes', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const trigger = screen.getByRole('button', { name: '開く' });

    await user.click(trigger);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger).toHaveFocus();

    await user.click(trigger);
    await user.click(screen.getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger).toHaveFocus();
  });

  it('gives focus back through returnFocus when given, at the moment it closes', async () => {
    const user = userEvent.setup();
    function Editor() {
      const [open, setOpen] = useState(true);
      const textRef = useRef<HTMLTextAreaElement>(null);
      return (
        <>
          <textarea ref={textRef} aria-label="本文" defaultValue="詳しくはこちら" />
          <Modal
            open={open}
            onClose={() => setOpen(false)}
            label="リンク"
            // The editor's own way: the caret where the editor keeps it, not at the start.
            returnFocus={() => {
              textRef.current?.focus();
              textRef.current?.setSelectionRange(7, 7);
            }}
          >
            <input aria-label="URL" />
          </Modal>
        </>
      );
    }
    render(<Editor />);
    await user.keyboard('{Escape}');
    const text = screen.getByRole<HTMLTextAreaElement>('textbox', { name: '本文' });
    expect(text).toHaveFocus();
    expect(text.selectionStart).toBe(7);
  });

  it('locks body scroll while open and restores it afterwards', () => {
    document.body.style.overflow = 'scroll';
    const { rerender } = render(
      <Modal open onClose={() => {}} label="お知らせ">
        本文
      </Modal>,
    );
    expect(document.body.style.overflow).toBe('hidden');
    rerender(
      <Modal open={false} onClose={() => {}} label="お知らせ">
        本文
      </Modal>,
    );
    expect(document.body.style.overflow).toBe('scroll');
    document.body.style.overflow = '';
  });

  it('only the topmost of two stacked dialogs reacts to Escape', async () => {
    const outerClose = vi.fn();
    const innerClose = vi.fn();
    render(
      <>
        <Modal open onClose={outerClose} label="外側">
          外側の本文
        </Modal>
        <Modal open onClose={innerClose} label="内側">
          内側の本文
        </Modal>
      </>,
    );
    await userEvent.keyboard('{Escape}');
    expect(innerClose).toHaveBeenCalledTimes(1);
    expect(outerClose).not.toHaveBeenCalled();
  });

  it('applies overlayColor, buttonColor and the mobile top position', () => {
    render(
      <Modal
        open
        onClose={() => {}}
        label="お知らせ"
        overlayColor="rgb(255, 255, 255)"
        buttonColor="rgb(235, 255, 0)"
        fixedTopOnMobile
      >
        本文
      </Modal>,
    );
    const overlay = screen.getByRole('dialog').parentElement;
    expect(overlay).toHaveStyle({ backgroundColor: 'rgb(255, 255, 255)' });
    expect(overlay).toHaveAttribute('data-fixed-top-on-mobile', 'true');
    expect(screen.getByRole('button', { name: '閉じる' })).toHaveStyle({
      color: 'rgb(235, 255, 0)',
    });
  });
});
