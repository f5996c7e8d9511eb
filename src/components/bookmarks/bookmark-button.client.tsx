'use client';

import { type FormEvent, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useAuthState } from '@/components/account/auth-state.client';
import { useSnackbar } from '@/components/ui/snackbar-context.client';
import { type BookmarkEndpoint, bookmarkKey } from '@/lib/bookmarks';
import { bookmarkState, saveBookmark, subscribeBookmark, syncBookmarkUser } from './bookmark-store';
import { SignInPrompt } from './sign-in-prompt.client';
import styles from './bookmark-button.module.css';

export const BOOKMARK_FAILED_MESSAGE =
  'ブックマークを保存できませんでした。時間をおいてもう一度お試しください。';
export const BOOKMARK_OFFLINE_MESSAGE =
  'ブックマークを保存できませんでした。通信環境を確認してもう一度お試しください。';

/**
 * The bookmark toggle of an item, on article pages and in lists. The state comes from the
 * page's one batched read (./bookmark-store.ts); a click shows the change at once and saves
 * it, and puts it back with a message when saving fails. A visitor who is not signed in is
 * told why in a dialog that leads to sign-in or sign-up and back. It is a real form (POST
 * /api/bookmarks, answered with a 303 back to the page, or to /login with the same reason),
 * so it also works before hydration and without JavaScript.
 *
 * One place everywhere: on item pages the labelled button under the title, on cards the
 * round icon (`variant="icon"`) at the top right of the cover.
 */
export function BookmarkButton({
  endpoint,
  contentId,
  title,
  initialBookmarked,
  variant = 'label',
  className,
}: {
  endpoint: BookmarkEndpoint;
  contentId: string;
  /** The item's title, for the button's accessible name. */
  title: string;
  /** Given when the page already knows (the bookmarks page): no read is made for it. */
  initialBookmarked?: boolean;
  /** 'icon': the round icon alone (cards); the words stay its accessible name. */
  variant?: 'label' | 'icon';
  className?: string;
}) {
  const key = bookmarkKey({ endpoint, contentId });
  const auth = useAuthState();
  const [promptFrom, setPromptFrom] = useState<string | null>(null);
  const { showSnackbar } = useSnackbar();

  const load = initialBookmarked === undefined;
  const subscribe = useCallback(
    (listener: () => void) => subscribeBookmark(key, listener, { load }),
    [key, load],
  );
  const known = useSyncExternalStore(
    subscribe,
    () => bookmarkState(key),
    () => undefined,
  );
  const bookmarked = known ?? initialBookmarked ?? false;

  const userId = auth.isLoading ? undefined : (auth.user?.uid ?? null);
  useEffect(() => {
    if (userId !== undefined) syncBookmarkUser(userId);
  }, [userId]);

  const signIn = () => setPromptFrom(`${window.location.pathname}${window.location.search}`);

  const toggle = async () => {
    // While the auth state still loads, the server decides (401 below).
    if (!auth.isLoading && !auth.user) {
      signIn();
      return;
    }
    const result = await saveBookmark(key, { endpoint, contentId }, !bookmarked, bookmarked);
    if (result.ok) return;
    if (result.status === 401) {
      signIn();
      return;
    }
    showSnackbar(
      result.message ?? (result.status === 0 ? BOOKMARK_OFFLINE_MESSAGE : BOOKMARK_FAILED_MESSAGE),
    );
  };

  const label = bookmarked ? 'ブックマーク済み' : 'ブックマーク';
  return (
    <>
      <form
        method="post"
        action="/api/bookmarks"
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          void toggle();
        }}
        className={[styles.form, className].filter(Boolean).join(' ')}
      >
        <input type="hidden" name="endpoint" value={endpoint} />
        <input type="hidden" name="contentId" value={contentId} />
        <input type="hidden" name="action" value={bookmarked ? 'remove' : 'add'} />
        <button
          type="submit"
          className={variant === 'icon' ? styles.iconButton : styles.button}
          aria-pressed={bookmarked}
        >
          <BookmarkIcon filled={bookmarked} />
          <span className={variant === 'icon' ? 'visually-hidden' : undefined}>{label}</span>
          <span className="visually-hidden">：{title}</span>
        </button>
      </form>
      <SignInPrompt
        open={promptFrom !== null}
        onClose={() => setPromptFrom(null)}
        returnTo={promptFrom ?? '/'}
      />
    </>
  );
}

function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      className={styles.icon}
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M6 3.75h12a.75.75 0 0 1 .75.75v16.19a.5.5 0 0 1-.8.4L12 16.6l-5.95 4.49a.5.5 0 0 1-.8-.4V4.5A.75.75 0 0 1 6 3.75Z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
      />
    </svg>
  );
}
