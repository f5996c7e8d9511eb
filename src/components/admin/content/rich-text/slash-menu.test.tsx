// @vitest-environment jsdom
import type { Editor } from '@tiptap/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RichTextEditor } from './rich-text-editor.client';
import { menuPosition } from './slash-menu';

// ProseMirror measures the page to scroll the selection into view; jsdom has no layout.
beforeAll(() => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  Element.prototype.scrollIntoView = () => {};
  document.elementFromPoint = () => null;
});

async function setup(initialHtml = '<p>前の段落</p><p></p>') {
  const onChange = vi.fn<(html: string) => void>();
  render(
    <>
      <span id="label">本文</span>
      <RichTextEditor id="body" initialHtml={initialHtml} onChange={onChange} labelledBy="label" />
    </>,
  );
  const area = await screen.findByRole('textbox', { name: '本文' });
  // TipTap keeps its editor on the editing element.
  const editor = (area as HTMLElement & { editor: Editor }).editor;
  act(() => {
    area.focus();
    editor.commands.focus('end');
  });
  return { area, editor, onChange };
}

/** Text typed at the caret (what ProseMirror makes of a keystroke). */
function type(editor: Editor, text: string) {
  act(() => {
    editor.commands.insertContent(text);
  });
}

const key = (area: HTMLElement, init: KeyboardEventInit) =>
  act(() => void fireEvent.keyDown(area, init));

describe('the / insert menu', () => {
  it('opens on /, filters as one types (kana too), and the textbox points at the highlighted item', async () => {
    const { area, editor } = await setup();
    type(editor, '/');
    const menu = await screen.findByRole('listbox', { name: '挿入するブロック' });
    const options = within(menu).getAllByRole('option');
    expect(options.map((option) => option.querySelector('span')?.textContent).slice(0, 5)).toEqual([
      '見出し2',
      '見出し3',
      '見出し4',
      '画像',
      '埋め込み',
    ]);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(area).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(area).toHaveAttribute('aria-controls', menu.id);

    type(editor, 'いんよう');
    await waitFor(() => expect(within(menu).getAllByRole('option')).toHaveLength(1));
    expect(within(menu).getByRole('option')).toHaveTextContent('引用');
  });

  it('moves with the arrow keys and inserts with Enter, replacing the typed /…', async () => {
    const { area, editor, onChange } = await setup();
    type(editor, '/みだし');
    const menu = await screen.findByRole('listbox');
    await waitFor(() => expect(within(menu).getAllByRole('option')).toHaveLength(3));
    key(area, { key: 'ArrowDown' });
    key(area, { key: 'ArrowDown' });
    key(area, { key: 'ArrowUp' });
    await waitFor(() =>
      expect(within(menu).getByRole('option', { selected: true })).toHaveTextContent('見出し3'),
    );
    key(area, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    type(editor, '節の見出し');
    expect(onChange).toHaveBeenLastCalledWith('<p>前の段落</p><h3>節の見出し</h3>');
    expect(area).not.toHaveAttribute('aria-activedescendant');
  });

  it('closes on Esc and stays in the text; leaves Enter to the IME while it converts', async () => {
    const { area, editor } = await setup();
    type(editor, '/がぞう');
    await screen.findByRole('listbox');
    key(area, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(document.activeElement).toBe(area);

    type(editor, ' /');
    await screen.findByRole('listbox');
    fireEvent.compositionStart(area);
    key(area, { key: 'Enter', isComposing: true, keyCode: 229 });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('listbox')).toBeInTheDocument();
  });

  it('opens the image dialog for 画像, and the image goes where the / was', async () => {
    const { area, editor, onChange } = await setup();
    type(editor, '/画像');
    await screen.findByRole('listbox');
    key(area, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: '画像を挿入' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /画像の URL/ }), {
      target: { value: '/a.jpg' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /代替テキスト/ }), {
      target: { value: '椅子' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '画像を挿入' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    type(editor, '後');
    expect(onChange).toHaveBeenLastCalledWith(
      '<p>前の段落</p><figure><img src="/a.jpg" alt="椅子"></figure><p>後</p>',
    );
  });

  it('shows the 文字数 and 読了時間 as the text changes', async () => {
    const { editor } = await setup('<p>前の段落</p>');
    expect(screen.getByText(/文字数/)).toHaveTextContent('文字数 4');
    type(editor, 'あ'.repeat(996));
    await waitFor(() => expect(screen.getByText(/文字数/)).toHaveTextContent('文字数 1,000'));
    expect(screen.getByText(/読了時間/)).toHaveTextContent('読了時間 約2分');
  });
});

describe('menuPosition', () => {
  it('opens below the slash, above it near the bottom, and stays on a phone’s screen', () => {
    expect(menuPosition({ left: 100, top: 200, bottom: 220 }, 1280, 720)).toEqual({
      left: 100,
      top: 224,
    });
    expect(menuPosition({ left: 300, top: 600, bottom: 620 }, 360, 720)).toEqual({
      left: 100,
      bottom: 124,
    });
    expect(menuPosition({ left: 0, top: 10, bottom: 30 }, 360, 200)).toEqual({ left: 4, top: 34 });
  });
});
