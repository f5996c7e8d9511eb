// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyTextButton } from './copy-text-button.client';

const ADDRESS = 'https://axis.example.jp/podcast/abcdefghijklmnopqrstuvwxyz012345/feed.xml';

afterEach(() => vi.unstubAllGlobals());

describe('CopyTextButton', () => {
  it('copies a read-only field’s value (the account page’s feed address)', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    render(
      <>
        <input id="feed" readOnly value={ADDRESS} />
        <CopyTextButton targetId="feed" what="URL" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'URLをコピー' }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(screen.getByRole('status')).toHaveTextContent('URLをコピーしました。');
  });

  it('selects the field for Ctrl+C where the clipboard is refused', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('no')) } });
    render(
      <>
        <input id="feed" readOnly value={ADDRESS} />
        <CopyTextButton targetId="feed" what="URL" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'URLをコピー' }));
    const field = screen.getByRole<HTMLInputElement>('textbox');
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, ADDRESS.length]);
    expect(screen.getByRole('status')).toHaveTextContent('選択したので');
  });
});
