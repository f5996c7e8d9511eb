// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { RichTextEditor } from './rich-text-editor.client';

// ProseMirror measures the page to scroll the selection into view; jsdom has no layout.
beforeAll(() => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  Element.prototype.scrollIntoView = () => {};
  document.elementFromPoint = () => null;
});

function setup(initialHtml = '<p>本文です。</p>') {
  const onChange = vi.fn<(html: string) => void>();
  render(
    <>
      <span id="label">本文</span>
      <span id="hint">見出しや画像が使えます。</span>
      <RichTextEditor
        id="body"
        initialHtml={initialHtml}
        onChange={onChange}
        labelledBy="label"
        describedBy="hint"
        invalid
      />
    </>,
  );
  return { onChange };
}

/** A paste as the browser delivers it (jsdom has no DataTransfer). */
function paste(target: HTMLElement, data: Record<string, string>) {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', {
    value: { types: Object.keys(data), getData: (type: string) => data[type] ?? '' },
  });
  act(() => {
    target.dispatchEvent(event);
  });
}

async function editingArea() {
  return screen.findByRole('textbox', { name: '本文' });
}

describe('RichTextEditor', () => {
  it('renders the HTML in a textarea before the editor is ready (server, no JavaScript)', () => {
    const html = renderToString(
      <RichTextEditor id="body" initialHtml="<p>本文</p>" onChange={() => {}} labelledBy="label" />,
    );
    const container = document.createElement('div');
    container.innerHTML = html;
    const textarea = container.querySelector('textarea')!;
    expect(textarea.id).toBe('body');
    expect(textarea.value).toBe('<p>本文</p>');
    expect(textarea.getAttribute('aria-labelledby')).toBe('label');
  });

  it('names the editing area from its props and marks it multi-line', async () => {
    setup();
    const area = await editingArea();
    expect(area).toHaveAttribute('id', 'body');
    expect(area).toHaveAttribute('aria-multiline', 'true');
    expect(area).toHaveAccessibleDescription('見出しや画像が使えます。');
    expect(area).toHaveAttribute('aria-invalid', 'true');
    expect(area).toHaveAttribute('contenteditable', 'true');
    expect(screen.queryByRole('textbox', { hidden: true, name: /HTML/ })).toBeNull();
  });

  it('reports nothing until the text is edited', async () => {
    const { onChange } = setup('<p>一段落目</p>\r\n<figure><img src="/a.png" alt="a" /></figure>');
    await editingArea();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('has a toolbar with Japanese names, one tab stop and arrow keys', async () => {
    setup();
    await editingArea();
    const toolbar = screen.getByRole('toolbar', { name: '書式' });
    for (const name of [
      '太字',
      '斜体',
      '見出し2',
      '箇条書き',
      '番号付きリスト',
      '引用',
      'リンク',
      '画像',
      '表',
      '埋め込み',
      '会員限定の区切り',
      '元に戻す',
      'やり直す',
    ]) {
      expect(within(toolbar).getByRole('button', { name }), name).toBeInTheDocument();
    }
    const stops = within(toolbar)
      .getAllByRole('button')
      .filter((button) => button.tabIndex === 0);
    expect(stops).toHaveLength(1);
    act(() => stops[0]!.focus());
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName('見出し3');
    expect(document.activeElement).toHaveAttribute('tabindex', '0');
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toHaveAccessibleName('会員限定の区切り');
  });

  it('formats from the toolbar, shows it with aria-pressed and reports the HTML', async () => {
    const { onChange } = setup();
    await editingArea();
    const heading = screen.getByRole('button', { name: '見出し2' });
    expect(heading).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(heading);
    await waitFor(() => expect(heading).toHaveAttribute('aria-pressed', 'true'));
    expect(onChange).toHaveBeenLastCalledWith('<h2>本文です。</h2>');
  });

  it('inserts the members’ divider once, as the access policy reads it', async () => {
    const { onChange } = setup();
    await editingArea();
    const divider = screen.getByRole('button', { name: '会員限定の区切り' });
    await userEvent.click(divider);
    expect(onChange.mock.lastCall?.[0]).toMatch(/<hr data-members-divider="">/);
    expect(screen.getByRole('separator', { name: 'ここから会員限定' })).toBeInTheDocument();
    expect(divider).toBeDisabled();
  });

  it('embeds a supported URL from the dialog and explains a refused one', async () => {
    const { onChange } = setup();
    await editingArea();
    await userEvent.click(screen.getByRole('button', { name: '埋め込み' }));
    const dialog = await screen.findByRole('dialog', { name: '埋め込みを挿入' });
    const field = within(dialog).getByRole('textbox', { name: /埋め込む URL/ });
    expect(document.activeElement).toBe(field);
    await userEvent.type(field, 'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ');
    await userEvent.click(within(dialog).getByRole('button', { name: '埋め込む' }));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/埋め込める URL ではありません/);
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.clear(field);
    await userEvent.type(field, 'https://youtu.be/dQw4w9WgXcQ');
    await userEvent.click(within(dialog).getByRole('button', { name: '埋め込む' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onChange.mock.lastCall?.[0]).toContain(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="YouTubeの動画" allowfullscreen=""></iframe>',
    );
    expect(screen.getByText('埋め込み：YouTube')).toBeInTheDocument();
  });

  it('requires alt text for an image', async () => {
    const { onChange } = setup();
    await editingArea();
    await userEvent.click(screen.getByRole('button', { name: '画像' }));
    const dialog = await screen.findByRole('dialog', { name: '画像を挿入' });
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /画像の URL/ }),
      'https://images.example.com/a.jpg',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: '画像を挿入' }));
    const alt = within(dialog).getByRole('textbox', { name: /代替テキスト/ });
    expect(alt).toHaveAttribute('aria-invalid', 'true');
    expect(document.activeElement).toBe(alt);
    await userEvent.type(alt, '木の椅子');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /キャプション/ }), '工房にて');
    await userEvent.click(within(dialog).getByRole('button', { name: '画像を挿入' }));
    await waitFor(() =>
      expect(onChange.mock.lastCall?.[0]).toContain(
        '<figure><img src="https://images.example.com/a.jpg" alt="木の椅子"><figcaption>工房にて</figcaption></figure>',
      ),
    );
  });

  it('turns a lone embeddable URL pasted into an empty paragraph into an embed', async () => {
    const { onChange } = setup('<p></p>');
    const area = await editingArea();
    paste(area, { 'text/plain': 'https://x.com/designer/status/1234567890?s=20' });
    expect(onChange).toHaveBeenLastCalledWith(
      '<figure><a href="https://x.com/designer/status/1234567890">https://x.com/designer/status/1234567890</a></figure>',
    );
  });

  it('cleans pasted Word HTML into a real list', async () => {
    const { onChange } = setup('<p></p>');
    const area = await editingArea();
    paste(area, {
      'text/html':
        '<p class=MsoListParagraph style="mso-list:l0 level1 lfo1"><!--[if !supportLists]--><span style="mso-list:Ignore">1.<span>&nbsp;</span></span><!--[endif]--><span style="font-family:游明朝">設計</span><o:p></o:p></p>' +
        '<p class=MsoListParagraph style="mso-list:l0 level1 lfo1"><!--[if !supportLists]--><span style="mso-list:Ignore">2.</span><!--[endif]-->施工</p>',
      'text/plain': '1. 設計\n2. 施工',
    });
    expect(onChange).toHaveBeenLastCalledWith('<ol><li><p>設計</p></li><li><p>施工</p></li></ol>');
  });

  it('leaves the editing area with Esc, but not while the IME is composing', async () => {
    setup();
    const area = await editingArea();
    act(() => area.focus());
    fireEvent.compositionStart(area);
    fireEvent.keyDown(area, { key: 'Escape', isComposing: true, keyCode: 229 });
    expect(document.activeElement).toBe(area);
    fireEvent.compositionEnd(area);
    // jsdom says it is WebKit, where ProseMirror ignores keys for 500 ms after a composition
    // (Safari sends the key that ended it late).
    await new Promise((resolve) => setTimeout(resolve, 600));
    fireEvent.keyDown(area, { key: 'Escape' });
    expect(document.activeElement).toHaveTextContent('キーボード操作');
  });
});
