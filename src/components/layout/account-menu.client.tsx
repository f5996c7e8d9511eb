'use client';

import { can } from '@/lib/access/console-permissions';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { Avatar } from '@/components/account/avatar';
import { useAuthState } from '@/components/account/auth-state.client';
import { SignOutButton } from '@/components/account/sign-out-button.client';
import { HeaderActionLabel } from './header-action';
import action from './header-action.module.css';
import { signInHref, signUpHref } from './sign-in-links';
import styles from './account-menu.module.css';
import { listen } from '@/components/ui/listen';

/**
 * The header's account corner: sign-in and sign-up links for a visitor, the member's menu
 * once signed in. On a phone it is an icon (the visitor's sign-in) or the member's avatar, so
 * no name, however long, pushes the menu button off the screen; the open menu gives the full
 * name and the plan. Pages are cached per audience, so the state comes after the page; until
 * then it keeps its place empty, at the width every state has (account-menu.module.css), so
 * nothing moves when it arrives; without JavaScript the <noscript> link is shown.
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
    return listen(document, { mousedown: close, keydown: close });
  }, [open]);

  if (state.isLoading) {
    return (
      <div className={styles.placeholder}>
        <noscript>
          <SignInLink href="/login" />
        </noscript>
      </div>
    );
  }
  if (!state.user) {
    return (
      <div className={styles.root}>
        <SignInLink href={signInHref(pathname)} />
        <Link href={signUpHref(pathname)} className={styles.signUp}>
          会員登録
        </Link>
      </div>
    );
  }
  const { displayName, avatarUrl } = state.user;
  const plan = state.isPaidUser ? '有料会員' : '無料会員';
  // Staff and contributors: the console (a contributor's own drafts).
  const staff = !!state.role && can(state.role, 'console');
  return (
    <div className={styles.root} ref={rootRef}>
      <button
        type="button"
        className={`${action.action} ${styles.trigger}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        <Avatar name={displayName} url={avatarUrl} size={30} />
        <span className={styles.name}>{displayName}</span>
        {state.isPaidUser ? <span className={styles.badge}>有料会員</span> : null}
      </button>
      {open ? (
        <div id={menuId} className={styles.menu}>
          <div className={styles.who}>
            <p className={styles.fullName}>{displayName}</p>
            <p className={styles.plan}>{plan}</p>
          </div>
          <ul className={styles.list}>
            <li>
              {/* Not prefetched: rendering the hub tells (and so uses up) a one-time notice. */}
              <Link href="/account" prefetch={false} onClick={() => setOpen(false)}>
                アカウント
              </Link>
            </li>
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
                {/* A full page load: the console has its own CSP (embeds it previews), and a
                    page keeps the policy it was first loaded with (decision 013). */}
                <a href="/admin" onClick={() => setOpen(false)}>
                  管理画面
                </a>
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

/** A person icon over 「ログイン」 on a phone, the word alone from 640 px. */
function SignInLink({ href }: { href: string }) {
  return (
    <Link href={href} className={action.action}>
      <HeaderActionLabel
        iconClassName={styles.loginIcon}
        caption="ログイン"
        icon={
          <>
            <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path
              d="M4.5 20.5c.9-3.6 3.9-6 7.5-6s6.6 2.4 7.5 6"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </>
        }
      />
    </Link>
  );
}
