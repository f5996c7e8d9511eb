'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { useAuthState } from '@/components/account/auth-state.client';
import { SignOutButton } from '@/components/account/sign-out-button.client';
import styles from './account-menu.module.css';

/**
 * The header's account corner: sign-in and sign-up links for a visitor, the member's menu
 * once signed in. Before the state loads it keeps its place empty (no jump); without
 * JavaScript the <noscript> link is shown.
 */
export function AccountMenu() {
  const state = useAuthState();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent && event.key !== 'Escape') return;
      if (event instanceof MouseEvent && rootRef.current?.contains(event.target as Node)) return;
      setOpen(false);
      if (event instanceof KeyboardEvent) rootRef.current?.querySelector('button')?.focus();
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (state.isLoading) {
    return (
      <div className={styles.placeholder} aria-hidden="true">
        <noscript>
          <Link href="/login" className={styles.login}>
            ログイン
          </Link>
        </noscript>
      </div>
    );
  }
  if (!state.user) {
    // Back to this page after signing in (not to the account screens themselves).
    const back =
      pathname && !/^\/(login|sign-up|account)(\/|$)/.test(pathname)
        ? `/login?next=${encodeURIComponent(pathname)}`
        : '/login';
    return (
      <div className={styles.root}>
        <Link href={back} className={styles.login}>
          ログイン
        </Link>
        <Link href="/sign-up" className={styles.signUp}>
          会員登録
        </Link>
      </div>
    );
  }
  const staff = state.role === 'editor' || state.role === 'admin';
  return (
    <div className={styles.root} ref={rootRef}>
      <button
        type="button"
        className={styles.trigger}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        <span className={styles.name}>{state.user.displayName}</span>
        {state.isPaidUser ? <span className={styles.badge}>有料会員</span> : null}
      </button>
      {open ? (
        <div id={menuId} className={styles.menu}>
          {/* On a phone the header has no room for the badge: the menu says it instead. */}
          <p className={styles.plan}>{state.isPaidUser ? '有料会員' : '無料会員'}</p>
          <ul className={styles.list}>
            <li>
              <Link href="/account/edit" onClick={() => setOpen(false)}>
                アカウント設定
              </Link>
            </li>
            <li>
              <Link href="/posts/bookmark" onClick={() => setOpen(false)}>
                ブックマーク
              </Link>
            </li>
            {staff ? (
              <li>
                <Link href="/admin" onClick={() => setOpen(false)}>
                  管理画面
                </Link>
              </li>
            ) : null}
          </ul>
          <div className={styles.signOut}>
            <SignOutButton />
          </div>
        </div>
      ) : null}
    </div>
  );
}
