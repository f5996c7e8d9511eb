// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MEMBER_AUTH_STATE } from '@test-support/auth-state';
import { AuthStateProvider } from '@/components/account/auth-state.client';
import { SnackbarProvider } from '@/components/ui/snackbar-context.client';
import { BookmarkButton } from './bookmark-button.client';
import { resetBookmarkStoreForTests } from './bookmark-store';
import { SIGN_IN_PROMPT_HEADING } from './sign-in-prompt.client';

const MEMBER = MEMBER_AUTH_STATE;
const ANONYMOUS = { ...MEMBER, user: null, role: null };

type Call = { url: string; method: string; body: unknown };

/** Resolves a pending answer and lets the component take it in. */
const settle = (resolve: () => void) =>
  act(async () => {
    resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

/** A fake server: /api/me, the batched read, and POSTs answered by `onPost`. */
function server({
  me = MEMBER,
  bookmarked = [],
  onPost = () => Response.json({ ok: true }),
}: {
  me?: object;
  bookmarked?: string[];
  onPost?: () => Promise<Response> | Response;
} = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({
        url,
        method,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      if (url === '/api/me') return Response.json(me);
      if (url.startsWith('/api/bookmarks?') && method === 'GET')
        return Response.json({ bookmarked, signedIn: me !== ANONYMOUS });
      if (url === '/api/bookmarks' && method === 'POST') return onPost();
      return new Response('not found', { status: 404 });
    }),
  );
  return {
    calls,
    reads: () => calls.filter((c) => c.url.startsWith('/api/bookmarks?')),
    posts: () => calls.filter((c) => c.method === 'POST'),
  };
}

function page(children: React.ReactNode) {
  return render(
    <SnackbarProvider>
      <AuthStateProvider>{children}</AuthStateProvider>
    </SnackbarProvider>,
  );
}

// jsdom lays nothing out, so it may read the phrase break (<wbr>) as a space.
const PROMPT_NAME = new RegExp(SIGN_IN_PROMPT_HEADING.replace('には', 'には\\s*'));

const button = (title: string) =>
  screen.getByRole('button', { name: new RegExp(`^ブックマーク(済み)?\\s*：${title}$`) });

/** A member's button, its state read; each save waits until the test calls `answer`. */
async function buttonWithHeldSaves() {
  const user = userEvent.setup();
  const held: { answer: (response: Response) => void } = { answer: () => undefined };
  const fake = server({ onPost: () => new Promise<Response>((r) => (held.answer = r)) });
  page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" />);
  await waitFor(() => expect(fake.reads()).toHaveLength(1));
  await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));
  return { user, fake, answer: (response: Response) => held.answer(response) };
}

beforeEach(() => {
  resetBookmarkStoreForTests();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BookmarkButton', () => {
  it('reads the state of every button on the page in one request', async () => {
    const fake = server({ bookmarked: ['posts:p2', 'movies:m1'] });
    page(
      <>
        <BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" />
        <BookmarkButton endpoint="posts" contentId="p2" title="文字を組む" />
        <BookmarkButton endpoint="movies" contentId="m1" title="工房を訪ねて" />
        <BookmarkButton endpoint="audios" contentId="a1" title="デザインの声" />
      </>,
    );
    // Rendered before the answer: not pressed, with the title in the accessible name.
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');

    await waitFor(() => expect(button('文字を組む')).toHaveAttribute('aria-pressed', 'true'));
    expect(button('工房を訪ねて')).toHaveAttribute('aria-pressed', 'true');
    expect(button('工房を訪ねて')).toHaveTextContent('ブックマーク済み');
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');
    expect(button('デザインの声')).toHaveAttribute('aria-pressed', 'false');

    expect(fake.reads()).toHaveLength(1);
    const items = new URL(fake.reads()[0]!.url, 'http://x').searchParams.get('items');
    expect(items?.split(',').sort()).toEqual(['audios:a1', 'movies:m1', 'posts:p1', 'posts:p2']);
  });

  it('asks nothing for a button whose state the page already knows', async () => {
    const fake = server();
    page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" initialBookmarked />);
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));
    await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(fake.reads()).toHaveLength(0);
  });

  it('toggles at once and saves; a second click removes', async () => {
    const { user, fake, answer } = await buttonWithHeldSaves();

    await user.click(button('余白の設計'));
    // Optimistic: pressed before the server answered.
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true');
    expect(button('余白の設計')).toHaveTextContent('ブックマーク済み');
    await waitFor(() => expect(fake.posts()).toHaveLength(1));
    expect(fake.posts()[0]!.body).toEqual({ endpoint: 'posts', contentId: 'p1', action: 'add' });
    await settle(() => answer(Response.json({ ok: true })));
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true');

    await user.click(button('余白の設計'));
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(fake.posts()).toHaveLength(2));
    expect(fake.posts()[1]!.body).toMatchObject({ action: 'remove' });
    await settle(() => answer(Response.json({ ok: true })));
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');
  });

  it('puts the state back and says why in the snackbar when saving fails', async () => {
    const { user, fake, answer } = await buttonWithHeldSaves();

    await user.click(button('余白の設計'));
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(fake.posts()).toHaveLength(1));
    await settle(() =>
      answer(
        Response.json(
          { ok: false, message: 'ブックマークは 2,000 件まで保存できます。' },
          { status: 400 },
        ),
      ),
    );
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'ブックマークは 2,000 件まで保存できます。',
    );
  });

  it('shows a Japanese message of its own when the network fails', async () => {
    const user = userEvent.setup();
    const fake = server({
      bookmarked: ['posts:p1'],
      onPost: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" />);
    await waitFor(() => expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));

    await user.click(button('余白の設計'));
    expect(await screen.findByRole('alert')).toHaveTextContent('通信環境を確認して');
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true');
  });

  it('tells an anonymous visitor why and offers sign-in and sign-up back to the page', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/posts/p1?ref=home');
    const fake = server({ me: ANONYMOUS });
    page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" />);
    await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));
    await waitFor(() => expect(fake.reads()).toHaveLength(1));

    await user.click(button('余白の設計'));
    const dialog = await screen.findByRole('dialog', { name: PROMPT_NAME });
    const back = encodeURIComponent('/posts/p1?ref=home');
    expect(within(dialog).getByRole('link', { name: 'ログイン' })).toHaveAttribute(
      'href',
      `/login?next=${back}`,
    );
    expect(within(dialog).getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
      'href',
      `/sign-up?next=${back}`,
    );
    expect(fake.posts()).toHaveLength(0);
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');

    // Escape closes it and the keyboard is back on the button.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button('余白の設計')).toHaveFocus();
  });

  it('asks to sign in again when the session ended meanwhile (401)', async () => {
    const user = userEvent.setup();
    const fake = server({
      onPost: () =>
        Response.json({ ok: false, message: 'ログインしてください。' }, { status: 401 }),
    });
    page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" />);
    await waitFor(() => expect(fake.reads()).toHaveLength(1));
    await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));

    await user.click(button('余白の設計'));
    expect(await screen.findByRole('dialog', { name: PROMPT_NAME })).toBeVisible();
    expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'false');
  });

  it('keeps its words as the accessible name when shown as an icon on a card', async () => {
    server({ bookmarked: ['posts:p1'] });
    page(<BookmarkButton endpoint="posts" contentId="p1" title="余白の設計" variant="icon" />);
    await waitFor(() => expect(button('余白の設計')).toHaveAttribute('aria-pressed', 'true'));
    // The words are hidden on screen only: the round icon is still named by them.
    expect(within(button('余白の設計')).getByText('ブックマーク済み')).toHaveClass(
      'visually-hidden',
    );
  });

  it('is a real form, so it works before hydration and without JavaScript', async () => {
    const fake = server();
    const { container } = page(
      <BookmarkButton endpoint="movies" contentId="m1" title="工房を訪ねて" initialBookmarked />,
    );
    const form = container.querySelector('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/bookmarks');
    expect(Object.fromEntries(new FormData(form))).toEqual({
      endpoint: 'movies',
      contentId: 'm1',
      action: 'remove',
    });
    expect(button('工房を訪ねて')).toHaveAttribute('type', 'submit');
    await waitFor(() => expect(fake.calls.some((c) => c.url === '/api/me')).toBe(true));
  });
});
