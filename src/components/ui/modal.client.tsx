'use client';

import {
  type ReactNode,
  type RefObject,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createPortal } from 'react-dom';
import styles from './modal.module.css';

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Any CSS colour; defaults to the `--color-overlay` token. */
  overlayColor?: string;
  /** Colour of the close (×) button; any CSS colour. */
  buttonColor?: string;
  /** Below 768px the dialog sticks to the top of the screen instead of being centred. */
  fixedTopOnMobile?: boolean;
  /** Id of the element (usually the heading) that names the dialog. Preferred over `label`. */
  labelledBy?: string;
  /** Accessible name when there is no visible heading to point at. */
  label?: string;
  describedBy?: string;
  /** Element to focus on open; by default the dialog itself, so its name is announced first. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Extra class for the dialog panel (e.g. a different max-width). */
  className?: string;
  /**
   * How focus goes back when the dialog closes, for an opener a plain `focus()` would put in
   * the wrong place (a rich-text editor: its caret at the start until the editor restores it,
   * and a key typed in between lands there). By default the element focused before it opened.
   */
  returnFocus?: () => void;
};

export function Modal({ open, ...props }: ModalProps) {
  // The portal target only exists in the browser; rendering nothing on the server and during
  // hydration keeps the server and client markup identical.
  const isClient = useSyncExternalStore(subscribeToNothing, isBrowser, isServer);
  if (!open || !isClient) return null;
  return createPortal(<OpenModal {...props} />, document.body);
}

function OpenModal({
  onClose,
  children,
  overlayColor,
  buttonColor,
  fixedTopOnMobile = false,
  labelledBy,
  label,
  describedBy,
  initialFocusRef,
  className,
  returnFocus,
}: Omit<ModalProps, 'open'>) {
  const dialogRef = useRef<HTMLDivElement>(null);
  // Read while rendering, before this commit can move focus (an autoFocus child would).
  const [returnFocusTo] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  // A drag that starts in the dialog (e.g. selecting text) and ends on the overlay is not a
  // click on the overlay.
  const pressStartedInDialog = useRef(false);

  const close = useEffectEvent(() => onClose());
  const getInitialFocus = useEffectEvent(() => initialFocusRef?.current ?? null);
  const focusBack = useEffectEvent(() => {
    if (returnFocus) returnFocus();
    else if (returnFocusTo?.isConnected) returnFocusTo.focus();
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    openDialogs.push(dialog);
    lockBodyScroll();

    const initial = getInitialFocus();
    if (initial && dialog.contains(initial)) initial.focus();
    else if (!dialog.contains(document.activeElement)) dialog.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      // Only the topmost of stacked dialogs reacts.
      if (openDialogs.at(-1) !== dialog || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        // Escape during Japanese IME conversion cancels the conversion, not the dialog.
        if (event.isComposing || event.keyCode === 229) return;
        event.preventDefault();
        close();
      } else if (event.key === 'Tab') {
        trapTab(event, dialog);
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      unlockBodyScroll();
      const index = openDialogs.lastIndexOf(dialog);
      if (index !== -1) openDialogs.splice(index, 1);
      focusBack();
    };
  }, []);

  const overlayClass = [styles.overlay, fixedTopOnMobile ? styles.topOnMobile : undefined]
    .filter(Boolean)
    .join(' ');
  const dialogClass = [styles.dialog, className].filter(Boolean).join(' ');

  return (
    <div
      className={overlayClass}
      data-fixed-top-on-mobile={fixedTopOnMobile || undefined}
      style={overlayColor ? { backgroundColor: overlayColor } : undefined}
      onPointerDown={(event) => {
        pressStartedInDialog.current = event.target !== event.currentTarget;
      }}
      onClick={(event) => {
        const startedInDialog = pressStartedInDialog.current;
        pressStartedInDialog.current = false;
        if (event.target === event.currentTarget && !startedInDialog) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-label={labelledBy ? undefined : label}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={dialogClass}
      >
        <button
          type="button"
          aria-label="閉じる"
          className={styles.close}
          style={buttonColor ? { color: buttonColor } : undefined}
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
        {children}
      </div>
    </div>
  );
}

const subscribeToNothing = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/** Open dialogs, oldest first: keyboard handling belongs to the last one. */
const openDialogs: HTMLElement[] = [];

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  'summary',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function tabbableWithin(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.tabIndex >= 0 && !element.closest('[hidden], [inert]'),
  );
}

function trapTab(event: KeyboardEvent, dialog: HTMLElement) {
  const tabbable = tabbableWithin(dialog);
  const first = tabbable[0];
  const last = tabbable.at(-1);
  if (!first || !last) {
    event.preventDefault();
    dialog.focus();
    return;
  }
  const active = document.activeElement;
  // Focus can leave the dialog without a Tab (e.g. the focused button became disabled while
  // loading and the browser moved focus to <body>); the next Tab brings it back.
  const outside = !dialog.contains(active);
  if (event.shiftKey) {
    if (outside || active === first || active === dialog) {
      event.preventDefault();
      last.focus();
    }
  } else if (outside || active === last) {
    event.preventDefault();
    first.focus();
  }
}

let scrollLocks = 0;
let savedBodyStyle: { overflow: string; paddingRight: string } | null = null;

function lockBodyScroll() {
  scrollLocks += 1;
  if (scrollLocks > 1) return;
  const { body, documentElement } = document;
  // Without the scrollbar the page would shift sideways; pad by its width instead.
  const scrollbarWidth = window.innerWidth - documentElement.clientWidth;
  savedBodyStyle = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
  body.style.overflow = 'hidden';
  if (scrollbarWidth > 0) {
    const current = parseFloat(getComputedStyle(body).paddingRight) || 0;
    body.style.paddingRight = `${current + scrollbarWidth}px`;
  }
}

function unlockBodyScroll() {
  scrollLocks = Math.max(0, scrollLocks - 1);
  if (scrollLocks > 0 || !savedBodyStyle) return;
  document.body.style.overflow = savedBodyStyle.overflow;
  document.body.style.paddingRight = savedBodyStyle.paddingRight;
  savedBodyStyle = null;
}
