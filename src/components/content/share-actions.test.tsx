// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MESSAGE, COPY_FAILED_MESSAGE, ShareActions } from './share-actions.client';

const URL = 'https://example.jp/posts/abc';

/** A browser with (or without) a clipboard, a share sheet and a touch screen. */
function browser(options: {
  writeText?: (text: string) => Promise<void>;
  share?: (data: ShareData) => Promise<void>;
  coarse?: boolean;
}) {
  vi.stubGlobal('navigator', {
    ...(options.writeText ? { clipboard: { writeText: options.writeText } } : {}),
    ...(options.share ? { share: options.share } : {}),
  });
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(pointer: coarse)' && options.coarse === true,
  }));
}

afterEach(() => vi.unstubAllGlobals());

describe('ShareActions', () => {
  it('renders nothing on the server: without JavaScript only the service links remain', () => {
    expect(renderToString(<ShareActions url={URL} title="記事" />)).toBe('');
  });

  it('copies the page’s address and says so in a live region', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    browser({ writeText });
    render(<ShareActions url={URL} title="記事" />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    await userEvent.click(screen.getByRole('button', { name: 'リンクをコピー' }));
    expect(writeText).toHaveBeenCalledWith(URL);
    expect(screen.getByRole('status')).toHaveTextContent(COPIED_MESSAGE);
    // No share sheet on a desktop (a fine pointer), even where the API exists.
    expect(screen.queryByRole('button', { name: 'その他のアプリで共有' })).toBeNull();
  });

  it('says in Japanese when the clipboard refuses', async () => {
    browser({ writeText: () => Promise.reject(new Error('NotAllowedError')) });
    render(<ShareActions url={URL} title="記事" />);
    await userEvent.click(screen.getByRole('button', { name: 'リンクをコピー' }));
    expect(screen.getByRole('status')).toHaveTextContent(COPY_FAILED_MESSAGE);
  });

  it('opens the phone’s share sheet with the title and address; a cancel is no error', async () => {
    const share = vi.fn(() => Promise.reject(new DOMException('', 'AbortError')));
    browser({ writeText: () => Promise.resolve(), share, coarse: true });
    render(<ShareActions url={URL} title="記事" />);
    await userEvent.click(screen.getByRole('button', { name: 'その他のアプリで共有' }));
    expect(share).toHaveBeenCalledWith({ title: '記事', url: URL });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
