'use client';

import { type Editor, useEditorState } from '@tiptap/react';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { hasMembersDivider } from './members-divider-node';
import styles from './rich-text-editor.module.css';

/**
 * The formatting toolbar: one tab stop (arrow keys move between buttons, as in any toolbar),
 * toggles with aria-pressed, Japanese names, shortcuts announced with aria-keyshortcuts.
 */

export type ToolbarActions = {
  onLink: () => void;
  onImage: () => void;
  onEmbed: () => void;
};

type Tool = {
  key: string;
  label: string;
  /** Shown instead of the label; the label stays the accessible name. */
  glyph?: ReactNode;
  shortcut?: string;
  pressed?: boolean;
  disabled?: boolean;
  run: () => void;
};

function useToolbarState(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      h4: e.isActive('heading', { level: 4 }),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      link: e.isActive('link'),
      table: e.isActive('table'),
      hasDivider: hasMembersDivider(e.state.doc),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
}

export function RichTextToolbar({
  editor,
  controls,
  actions,
}: {
  editor: Editor;
  /** The editing area's id. */
  controls: string;
  actions: ToolbarActions;
}) {
  const state = useToolbarState(editor);
  const chain = () => editor.chain().focus();
  const groups: { label: string; tools: Tool[] }[] = [
    {
      label: '履歴',
      tools: [
        {
          key: 'undo',
          label: '元に戻す',
          glyph: '↶',
          shortcut: 'Control+Z',
          disabled: !state.canUndo,
          run: () => chain().undo().run(),
        },
        {
          key: 'redo',
          label: 'やり直す',
          glyph: '↷',
          shortcut: 'Control+Shift+Z',
          disabled: !state.canRedo,
          run: () => chain().redo().run(),
        },
      ],
    },
    {
      label: '段落の種類',
      tools: ([2, 3, 4] as const).map((level) => ({
        key: `h${level}`,
        label: `見出し${level}`,
        glyph: `H${level}`,
        shortcut: `Control+Alt+${level}`,
        pressed: state[`h${level}`],
        run: () => chain().toggleHeading({ level }).run(),
      })),
    },
    {
      label: '文字の書式',
      tools: [
        {
          key: 'bold',
          label: '太字',
          glyph: <b>B</b>,
          shortcut: 'Control+B',
          pressed: state.bold,
          run: () => chain().toggleBold().run(),
        },
        {
          key: 'italic',
          label: '斜体',
          glyph: <i>I</i>,
          shortcut: 'Control+I',
          pressed: state.italic,
          run: () => chain().toggleItalic().run(),
        },
        {
          key: 'underline',
          label: '下線',
          glyph: <u>U</u>,
          shortcut: 'Control+U',
          pressed: state.underline,
          run: () => chain().toggleUnderline().run(),
        },
        {
          key: 'strike',
          label: '取り消し線',
          glyph: <s>S</s>,
          shortcut: 'Control+Shift+S',
          pressed: state.strike,
          run: () => chain().toggleStrike().run(),
        },
        {
          key: 'code',
          label: 'コード',
          glyph: '</>',
          shortcut: 'Control+E',
          pressed: state.code,
          run: () => chain().toggleCode().run(),
        },
        {
          key: 'link',
          label: 'リンク',
          shortcut: 'Control+K',
          pressed: state.link,
          run: actions.onLink,
        },
      ],
    },
    {
      label: 'ブロック',
      tools: [
        {
          key: 'bulletList',
          label: '箇条書き',
          glyph: '•≡',
          shortcut: 'Control+Shift+8',
          pressed: state.bulletList,
          run: () => chain().toggleBulletList().run(),
        },
        {
          key: 'orderedList',
          label: '番号付きリスト',
          glyph: '1.≡',
          shortcut: 'Control+Shift+7',
          pressed: state.orderedList,
          run: () => chain().toggleOrderedList().run(),
        },
        {
          key: 'blockquote',
          label: '引用',
          glyph: '❝',
          shortcut: 'Control+Shift+B',
          pressed: state.blockquote,
          run: () => chain().toggleBlockquote().run(),
        },
        {
          key: 'codeBlock',
          label: 'コードブロック',
          glyph: '{ }',
          shortcut: 'Control+Alt+C',
          pressed: state.codeBlock,
          run: () => chain().toggleCodeBlock().run(),
        },
        {
          key: 'rule',
          label: '区切り線',
          glyph: '―',
          run: () => chain().setHorizontalRule().run(),
        },
      ],
    },
    {
      label: '挿入',
      tools: [
        // With an image selected, this edits it.
        { key: 'image', label: '画像', run: actions.onImage },
        {
          key: 'table',
          label: '表',
          disabled: state.table,
          run: () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
        },
        { key: 'embed', label: '埋め込み', run: actions.onEmbed },
        {
          key: 'divider',
          label: '会員限定の区切り',
          // One per document: the access policy reads the first.
          disabled: state.hasDivider,
          run: () => chain().insertMembersDivider().run(),
        },
      ],
    },
  ];

  const tableTools: Tool[] = state.table
    ? [
        {
          key: 'rowAfter',
          label: '行を下に追加',
          glyph: '＋行',
          run: () => chain().addRowAfter().run(),
        },
        {
          key: 'colAfter',
          label: '列を右に追加',
          glyph: '＋列',
          run: () => chain().addColumnAfter().run(),
        },
        { key: 'rowDelete', label: '行を削除', glyph: '−行', run: () => chain().deleteRow().run() },
        {
          key: 'colDelete',
          label: '列を削除',
          glyph: '−列',
          run: () => chain().deleteColumn().run(),
        },
        {
          key: 'headerRow',
          label: '見出し行の切り替え',
          glyph: '見出し行',
          run: () => chain().toggleHeaderRow().run(),
        },
        {
          key: 'tableDelete',
          label: '表を削除',
          glyph: '表を削除',
          run: () => chain().deleteTable().run(),
        },
      ]
    : [];

  const all = [...groups.flatMap((group) => group.tools), ...tableTools].filter(
    (tool) => !tool.disabled,
  );
  const [current, setCurrent] = useState('h2');
  const active = all.some((tool) => tool.key === current) ? current : all[0]?.key;
  const toolbarRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const keys = all.map((tool) => tool.key);
    const index = keys.indexOf(active ?? '');
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = (index + 1) % keys.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + keys.length) % keys.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = keys.length - 1;
    if (next === null) return;
    event.preventDefault();
    const key = keys[next];
    if (!key) return;
    setCurrent(key);
    toolbarRef.current?.querySelector<HTMLButtonElement>(`[data-tool="${key}"]`)?.focus();
  };

  const button = (tool: Tool) => (
    <button
      key={tool.key}
      type="button"
      data-tool={tool.key}
      className={styles.button}
      tabIndex={tool.key === active ? 0 : -1}
      aria-label={tool.glyph ? tool.label : undefined}
      title={tool.glyph ? tool.label : undefined}
      aria-pressed={tool.pressed === undefined ? undefined : tool.pressed}
      aria-keyshortcuts={tool.shortcut}
      disabled={tool.disabled}
      onFocus={() => setCurrent(tool.key)}
      // Keep the editor's selection: a click on a button must not take focus from the text first.
      onMouseDown={(event) => event.preventDefault()}
      onClick={tool.run}
    >
      {tool.glyph ? (
        <span aria-hidden="true" className={styles.glyph}>
          {tool.glyph}
        </span>
      ) : (
        tool.label
      )}
    </button>
  );

  return (
    <div
      ref={toolbarRef}
      role="toolbar"
      aria-label="書式"
      aria-controls={controls}
      className={styles.toolbar}
      onKeyDown={onKeyDown}
    >
      {groups.map((group) => (
        <div key={group.label} role="group" aria-label={group.label} className={styles.group}>
          {group.tools.map(button)}
        </div>
      ))}
      {tableTools.length > 0 ? (
        <div role="group" aria-label="表の編集" className={styles.tableTools}>
          <span className={styles.tableToolsLabel} aria-hidden="true">
            表：
          </span>
          {tableTools.map(button)}
        </div>
      ) : null}
    </div>
  );
}
