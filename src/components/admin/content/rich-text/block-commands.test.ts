// @vitest-environment jsdom
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { Editor } from '@tiptap/react';
import { editorHtml, richTextExtensions } from './extensions';

function editorWith(content: string): Editor {
  return new Editor({
    element: document.createElement('div'),
    extensions: richTextExtensions(),
    content,
  });
}

/** The position just inside the first textblock whose text is `text`, plus `offset`. */
function inText(editor: Editor, text: string, offset = 0): number {
  let found = -1;
  editor.state.doc.descendants((node, pos) => {
    if (found < 0 && node.isTextblock && node.textContent === text) found = pos + 1 + offset;
    return found < 0;
  });
  if (found < 0) throw new Error(`no block ${text}`);
  return found;
}

const IMAGE = { type: 'image', attrs: { src: '/a.jpg', alt: '椅子', caption: '' } };

describe('insertBlock', () => {
  it('replaces an empty paragraph at the end and leaves the caret in a new paragraph after it', () => {
    const editor = editorWith('<p>前</p><p></p>');
    editor.commands.setTextSelection(inText(editor, ''));
    editor.commands.insertBlock(IMAGE);
    editor.commands.insertContent('後');
    expect(editorHtml(editor)).toBe(
      '<p>前</p><figure><img src="/a.jpg" alt="椅子"></figure><p>後</p>',
    );
    editor.destroy();
  });

  it('reuses the empty paragraph after it, and splits a paragraph it lands in', () => {
    const editor = editorWith('<p>前後</p>');
    editor.commands.setTextSelection(inText(editor, '前後', 1));
    editor.commands.insertBlock({ type: 'horizontalRule' });
    editor.commands.insertContent('間');
    expect(editorHtml(editor)).toBe('<p>前</p><hr><p>間</p><p>後</p>');
    editor.destroy();
  });
});

describe('moveBlock', () => {
  it('swaps the top-level block with its neighbour and keeps the caret in it', () => {
    const editor = editorWith('<p>一</p><blockquote><p>二</p></blockquote><p>三</p>');
    editor.commands.setTextSelection(inText(editor, '二', 1));
    expect(editor.commands.moveBlock(-1)).toBe(true);
    expect(editorHtml(editor)).toBe('<blockquote><p>二</p></blockquote><p>一</p><p>三</p>');
    expect(editor.state.selection.$from.parent.textContent).toBe('二');
    expect(editor.state.selection.$from.parentOffset).toBe(1);
    expect(editor.commands.moveBlock(-1)).toBe(false);
    editor.commands.moveBlock(1);
    editor.commands.moveBlock(1);
    expect(editorHtml(editor)).toBe('<p>一</p><p>三</p><blockquote><p>二</p></blockquote>');
    expect(editor.can().moveBlock(1)).toBe(false);
    editor.destroy();
  });

  it('moves a list item within its list, and a selected image', () => {
    const editor = editorWith(
      '<ul><li><p>あ</p></li><li><p>い</p></li></ul><figure><img src="/a.jpg" alt="椅子"></figure>',
    );
    editor.commands.setTextSelection(inText(editor, 'い'));
    editor.commands.moveBlock(-1);
    expect(editorHtml(editor)).toContain('<ul><li><p>い</p></li><li><p>あ</p></li></ul>');
    const imagePos = editor.state.doc.content.size - editor.state.doc.lastChild!.nodeSize;
    editor.view.dispatch(
      editor.state.tr.setSelection(NodeSelection.create(editor.state.doc, imagePos)),
    );
    editor.commands.moveBlock(-1);
    expect(editorHtml(editor)).toMatch(/^<figure>.*<\/figure><ul>/);
    expect(editor.state.selection).toBeInstanceOf(NodeSelection);
    expect(editor.state.selection).not.toBeInstanceOf(TextSelection);
    editor.destroy();
  });
});
