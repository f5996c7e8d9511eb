'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useAuthState } from '@/components/account/auth-state.client';
import type { NavItem } from '@/lib/site';
import { HeaderActionLabel } from './header-action';
import action from './header-action.module.css';
import { signInHref, signUpHref } from './sign-in-links';
import styles from './mobile-menu.module.css';

// The dialog's code loads on first opening (or when the pointer or focus reaches the button),
// not with every page.
const loadModal = () => import('@/components/ui/modal.client');
const Modal = lazy(() => loadModal().then((m) => ({ default: m.Modal })));

/**
 * The phone menu. Before the page is interactive the button is a plain link to the footer's
 * site map; once hydrated it opens the navigation in a modal.
 */
export function MobileMenu({
  areas,
  services,
}: {
  areas: readonly NavItem[];
  services: readonly NavItem[];
}) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const pathname = usePathname();
  const auth = useAuthState();
  const visitor = !auth.isLoading && !auth.user;

  // A link inside the menu navigates client-side: close the menu on arrival.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <>
      <a
        href="#site-map"
        className={`${action.action} ${styles.menuButton}`}
        role="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadModal()}
        onFocus={() => void loadModal()}
        onClick={(event) => {
          event.preventDefault();
          setOpened(true);
          setOpen(true);
        }}
      >
        <HeaderActionLabel
          caption="メニュー"
          icon={
            <path
              d="M3 6h18M3 12h18M3 18h18"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          }
        />
      </a>
      {opened ? (
        <Suspense fallback={null}>
          <Modal open={open} onClose={() => setOpen(false)} label="メニュー" fixedTopOnMobile>
            <nav aria-label="メニュー" className={styles.menu}>
              {/* On a phone the header has room for the sign-in icon only: sign-up is here. */}
              {visitor ? (
                <p className={styles.account}>
                  <Link
                    href={signUpHref(pathname)}
                    className={styles.signUp}
                    onClick={() => setOpen(false)}
                  >
                    無料で会員登録
                  </Link>
                  <Link
                    href={signInHref(pathname)}
                    className={styles.signIn}
                    onClick={() => setOpen(false)}
                  >
                    ログイン
                  </Link>
                </p>
              ) : null}
              <ul className={styles.list}>
                {[...areas, ...services].map((item) => (
                  <li key={item.href}>
                    <Link href={item.href} className={styles.link} onClick={() => setOpen(false)}>
                      <span className={styles.label}>{item.label}</span>
                      <span className={styles.description}>{item.description}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </Modal>
        </Suspense>
      ) : null}
    </>
  );
}
