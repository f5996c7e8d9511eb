// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReferenceOption } from '@/lib/admin-content';
import { ReferencePicker } from './reference-picker.client';
import { readLookupAnswer } from './use-console-lookup';

const known: ReferenceOption[] = [
  { id: 't1', label: '展覧会', status: 'published' },
  { id: 't2', label: '書体', status: 'draft' },
];

function Harness({ multiple, initial }: { multiple: boolean; initial: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="field-tags">タグ</label>
      <ReferencePicker
        id="field-tags"
        endpoint="tags"
        fieldLabel="タグ"
        multiple={multiple}
        value={value}
        onChange={setValue}
        known={known}
        excludeId="self"
      />
      <div data-testid="value">{value.join(',')}</div>
    </>
  );
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  vi.useFakeTimers();
  fetchMock = vi.fn<typeof fetch>(() =>
    Promise.resolve(
      new Response(
        JSON.stringify({
          items: [
            { id: 'self', label: 'この記事', status: 'draft' },
            { id: 't3', label: '照明', status: 'published' },
            { id: 't4', label: '家具', status: 'scheduled' },
          ],
        }),
      ),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const value = () => screen.getByTestId('value').textContent;

describe('ReferencePicker', () => {
  it('searches as the editor types (debounced) and picks with the arrow keys and Enter', async () => {
    render(<Harness multiple initial={['t1']} />);
    const input = screen.getByRole('combobox', { name: 'タグ' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '照' } });
    fireEvent.change(input, { target: { value: '照明' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    // One request for what was typed last, not one per keystroke.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      '/api/admin/content/tags/lookup?q=%E7%85%A7%E6%98%8E',
    );
    expect(input).toHaveAttribute('aria-expanded', 'true');
    const listbox = screen.getByRole('listbox', { name: 'タグの候補' });
    // The item itself is never offered.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['照明公開中', '家具予約公開']);
    expect(screen.getByText(/2件の候補があります/)).toBeInTheDocument();

    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-activedescendant', 'field-tags-listbox-1');
    expect(within(listbox).getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    const enter = fireEvent.keyDown(input, { key: 'Enter' });
    // Enter picked: it did not submit a form.
    expect(enter).toBe(false);
    expect(value()).toBe('t1,t4');
    expect(screen.getByRole('list', { name: '選択中のタグ' })).toHaveTextContent(
      '家具（予約公開）',
    );
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the list with Esc, then clears the query with a second Esc', async () => {
    render(<Harness multiple initial={[]} />);
    const input = screen.getByRole('combobox', { name: 'タグ' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '家' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(input).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('家');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input).toHaveValue('');
  });

  it('reorders and removes chosen items with buttons, keeping the focus on the moved one', () => {
    render(<Harness multiple initial={['t1', 't2']} />);
    expect(screen.getByRole('button', { name: '展覧会を上へ移動' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: '展覧会を下へ移動' }));
    expect(value()).toBe('t2,t1');
    // It reached the end: its other button takes the focus.
    expect(screen.getByRole('button', { name: '展覧会を上へ移動' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: '書体を外す' }));
    expect(value()).toBe('t1');
    expect(screen.getByRole('combobox', { name: 'タグ' })).toHaveFocus();
  });

  it('replaces the one chosen item of a single reference', async () => {
    render(<Harness multiple={false} initial={['t1']} />);
    expect(screen.queryByRole('button', { name: /移動/ })).not.toBeInTheDocument();
    const input = screen.getByRole('combobox', { name: 'タグ' });
    fireEvent.focus(input);
    await act(() => vi.advanceTimersByTimeAsync(300));
    fireEvent.mouseDown(screen.getByRole('option', { name: /照明/ }));
    expect(value()).toBe('t3');
  });

  it('says so when the lookup fails', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 500 }));
    render(<Harness multiple initial={[]} />);
    fireEvent.focus(screen.getByRole('combobox', { name: 'タグ' }));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByRole('status')).toHaveTextContent('候補を読み込めませんでした');
  });
});

describe('readLookupAnswer', () => {
  it('keeps well-formed options and refuses other answers', () => {
    expect(
      readLookupAnswer({ items: [{ id: 'a', label: '', status: 'odd' }, { label: 'x' }] }),
    ).toEqual([{ id: 'a', label: 'a', status: 'draft' }]);
    expect(readLookupAnswer({ rows: [] })).toBeNull();
    expect(readLookupAnswer(null)).toBeNull();
  });
});
