'use client';

import { PluginKey } from '@tiptap/pm/state';
import { Extension } from '@tiptap/react';
import Suggestion, { type SuggestionKeyDownProps, type SuggestionProps } from '@tiptap/suggestion';
import { SLASH_ITEMS, type SlashItem, filterSlashItems } from './slash-menu-items';
import styles from './rich-text-editor.module.css';

/**
 * The `/` insert menu: TipTap's suggestion plugin finds the `/` typed at the start of a word in
 * a paragraph and what follows it; the editor shows the matching items as a listbox the caret's
 * textbox points at (aria-activedescendant), ↑ ↓ move, Enter or Tab inserts, Esc closes.
 */

export type SlashMenuState = {
  items: SlashItem[];
  active: number;
  /** Where the `/` is on the screen (the menu opens below it). */
  rect: { left: number; top: number; bottom: number } | null;
  choose: (item: SlashItem) => void;
};

/** What the plugin tells the editor component, through refs (the extension is created once). */
export type SlashMenuBridge = {
  /** The menu to show, or null to hide it. */
  show: (menu: SlashMenuState | null) => void;
  /** The item to move to: the active index from the one shown. */
  move: (delta: 1 | -1) => void;
  /** The highlighted item is chosen; false when no menu is shown. */
  chooseActive: () => boolean;
};

export const slashMenuKey = new PluginKey('slashMenu');

function menuFrom(props: SuggestionProps<SlashItem, SlashItem>): SlashMenuState {
  const rect = props.clientRect?.() ?? null;
  return {
    // Filtered here, at once: the plugin's own item list arrives a tick later (it may be
    // fetched), and the menu would flash 「該当なし」 in between.
    items: filterSlashItems(SLASH_ITEMS, props.query, props.editor),
    active: 0,
    rect: rect ? { left: rect.left, top: rect.top, bottom: rect.bottom } : null,
    choose: (item) => props.command(item),
  };
}

export function slashMenuExtension(options: {
  bridge: () => SlashMenuBridge;
  onDialog: (dialog: 'image' | 'embed') => void;
}) {
  return Extension.create({
    name: 'slashMenu',
    // Before the console's Esc (which leaves the editor): an open menu closes first.
    priority: 1000,
    addProseMirrorPlugins() {
      return [
        Suggestion<SlashItem, SlashItem>({
          editor: this.editor,
          pluginKey: slashMenuKey,
          char: '/',
          // At a paragraph's start or after a space (a Japanese full-width one too): a slash
          // inside a word or a path is just a slash.
          allowedPrefixes: [' ', '\u3000'],
          // A plain paragraph only: a slash in code or a URL being typed is just a slash.
          allow: ({ state, range }) => {
            const $from = state.doc.resolve(range.from);
            return $from.parent.type.name === 'paragraph' && !$from.marks().length;
          },
          command: ({ editor, range, props: item }) => {
            editor.chain().focus().deleteRange(range).run();
            if ('dialog' in item.action) options.onDialog(item.action.dialog);
            else item.action.run(editor);
          },
          render: () => ({
            onStart: (props) => options.bridge().show(menuFrom(props)),
            onUpdate: (props) => options.bridge().show(menuFrom(props)),
            onExit: () => options.bridge().show(null),
            onKeyDown: ({ event }: SuggestionKeyDownProps) => {
              // While an IME converts, Enter and the arrows belong to it.
              if (event.isComposing || event.keyCode === 229) return false;
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                options.bridge().move(event.key === 'ArrowDown' ? 1 : -1);
                return true;
              }
              if (event.key === 'Enter' || event.key === 'Tab') {
                return options.bridge().chooseActive();
              }
              return false;
            },
          }),
        }),
      ];
    },
  });
}

/** The menu's widest and tallest (rich-text-editor.module.css: 16rem wide, 18rem high at most). */
const MENU_WIDTH = 256;
const MENU_HEIGHT = 288;
const GAP = 4;

/**
 * Where the menu goes: below the `/`, or above it when the screen has no room below; never past
 * the right edge (a phone is 360 px wide).
 */
export function menuPosition(
  rect: { left: number; top: number; bottom: number },
  viewportWidth: number,
  viewportHeight: number,
): { left: number; top?: number; bottom?: number } {
  const left = Math.max(GAP, Math.min(rect.left, viewportWidth - MENU_WIDTH - GAP));
  const roomBelow = viewportHeight - rect.bottom;
  if (roomBelow >= MENU_HEIGHT + GAP || roomBelow >= rect.top)
    return { left, top: rect.bottom + GAP };
  return { left, bottom: viewportHeight - rect.top + GAP };
}

/** The option's id, for the textbox's aria-activedescendant. */
export function slashOptionId(listId: string, item: SlashItem): string {
  return `${listId}-${item.key}`;
}

export function SlashMenu({
  id,
  menu,
  onHover,
}: {
  id: string;
  menu: SlashMenuState;
  onHover: (index: number) => void;
}) {
  const style = menu.rect
    ? menuPosition(menu.rect, window.innerWidth, window.innerHeight)
    : undefined;
  if (menu.items.length === 0) {
    return (
      <p className={styles.slashMenu} style={style} role="status">
        該当するブロックがありません
      </p>
    );
  }
  return (
    <ul
      id={id}
      role="listbox"
      aria-label="挿入するブロック"
      className={styles.slashMenu}
      style={style}
    >
      {menu.items.map((item, index) => (
        <li
          key={item.key}
          id={slashOptionId(id, item)}
          role="option"
          aria-selected={index === menu.active}
          className={styles.slashOption}
          // The caret stays in the text: a click must not take the focus first.
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onHover(index)}
          onClick={() => menu.choose(item)}
        >
          <span className={styles.slashLabel}>{item.label}</span>
          <span className={styles.slashDescription}>{item.description}</span>
        </li>
      ))}
    </ul>
  );
}
