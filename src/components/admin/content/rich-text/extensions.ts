import CodeBlock from '@tiptap/extension-code-block';
import Link from '@tiptap/extension-link';
import { OrderedList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { CharacterCount, Placeholder } from '@tiptap/extensions';
import Document from '@tiptap/extension-document';
import { Extension, type Editor, type Extensions } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { countCharacters } from '@/lib/reading-time';
import { BlockCommands } from './block-commands';
import { EmbedNode } from './embed-node';
import { FigureImage } from './figure-image-node';
import { MembersDivider, TOP_LEVEL_GROUP } from './members-divider-node';
import { slashMenuExtension } from './slash-menu';

/**
 * The editor's schema: exactly the markup src/lib/cms/sanitize.ts keeps, so what
 * the editor writes is what the content API stores. Every attribute the sanitiser would drop
 * (classes, styles, column widths, list start numbers, link titles) is left out here, and
 * extensions.test.ts checks the round trip.
 */

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const REL_TOKENS = new Set(['nofollow', 'noopener', 'noreferrer', 'sponsored', 'ugc', 'external']);

/**
 * A link's rel as the sanitiser writes it: known tokens only, in their order, and
 * noopener noreferrer for a new tab. Kept, so a PR article's rel="sponsored" survives editing.
 */
export function relFor(value: string | null | undefined, newTab: boolean): string | null {
  const tokens = new Set(
    (value ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((token) => REL_TOKENS.has(token)),
  );
  if (newTab) {
    tokens.add('noopener');
    tokens.add('noreferrer');
  }
  return tokens.size > 0 ? [...tokens].join(' ') : null;
}

function opensNewTab(element: HTMLElement): boolean {
  return element.getAttribute('target')?.trim().toLowerCase() === '_blank';
}

/** http, https and mailto only; a relative path (an article on this site) is fine too. */
export function isAllowedLink(href: string): boolean {
  const value = href.trim();
  if (!value || /^[/\\]{2}/.test(value)) return false;
  try {
    return LINK_SCHEMES.has(new URL(value, 'https://relative.invalid/').protocol);
  } catch {
    return false;
  }
}

const RichLink = Link.extend({
  // Text typed at a link's end is not part of it (TipTap makes autolinks inclusive).
  inclusive: false,
  addAttributes() {
    return {
      href: { default: null, parseHTML: (element) => element.getAttribute('href') },
      target: {
        default: null,
        parseHTML: (element) => (opensNewTab(element) ? '_blank' : null),
      },
      rel: {
        default: null,
        parseHTML: (element) => relFor(element.getAttribute('rel'), opensNewTab(element)),
      },
    };
  },
  // href first, as written everywhere else; a refused URL is written as no link target.
  renderHTML({ HTMLAttributes }) {
    const { href, ...rest } = HTMLAttributes as { href?: string | null };
    return ['a', { href: href && isAllowedLink(href) ? href : null, ...rest }, 0];
  },
}).configure({
  openOnClick: false,
  autolink: true,
  linkOnPaste: true,
  defaultProtocol: 'https',
  protocols: [],
  HTMLAttributes: { target: null, rel: null, class: null },
  isAllowedUri: (url) => isAllowedLink(url),
});

/** `<ol>` without start or type: the sanitiser keeps neither. */
const PlainOrderedList = OrderedList.extend({
  addAttributes() {
    return {
      start: { default: 1, rendered: false, parseHTML: () => 1 },
      type: { default: null, rendered: false, parseHTML: () => null },
    };
  },
});

/** `<pre><code>` without the language class. */
const PlainCodeBlock = CodeBlock.extend({
  addAttributes() {
    return { language: { default: null, rendered: false, parseHTML: () => null } };
  },
}).configure({ enableTabIndentation: false });

/** `<table><tbody>…` without the column group and widths the editing view uses. */
const PlainTable = Table.extend({
  renderHTML() {
    return ['table', ['tbody', 0]];
  },
}).configure({ resizable: false, allowTableNodeSelection: false });

const plainCellAttributes = {
  colwidth: { default: null, rendered: false, parseHTML: () => null },
  align: { default: null, rendered: false, parseHTML: () => null },
};

const PlainTableCell = TableCell.extend({
  addAttributes() {
    return { ...this.parent?.(), ...plainCellAttributes };
  },
});

const PlainTableHeader = TableHeader.extend({
  addAttributes() {
    return { ...this.parent?.(), ...plainCellAttributes };
  },
});

export type ConsoleKeyOptions = { onEscape: (() => void) | null; onLink: (() => void) | null };

/**
 * Esc leaves the editing area (Tab indents in lists and moves between table cells), so the
 * keyboard is never trapped; Ctrl/Cmd+K opens the link dialog. Neither while the IME is
 * composing: there Esc cancels the conversion.
 */
const ConsoleKeys = Extension.create<ConsoleKeyOptions>({
  name: 'consoleKeys',
  addOptions() {
    return { onEscape: null, onLink: null };
  },
  addKeyboardShortcuts() {
    const run = (callback: (() => void) | null) => () => {
      if (this.editor.view.composing || !callback) return false;
      callback();
      return true;
    };
    return { Escape: run(this.options.onEscape), 'Mod-k': run(this.options.onLink) };
  },
});

export type RichTextOptions = {
  onEscape?: () => void;
  onLink?: () => void;
  /** The `/` menu's link to the editor component; no menu without it. */
  slashMenu?: Parameters<typeof slashMenuExtension>[0];
};

export function richTextExtensions(options: RichTextOptions = {}): Extensions {
  return [
    Document.extend({ content: `(block | ${TOP_LEVEL_GROUP})+` }),
    StarterKit.configure({
      document: false,
      heading: { levels: [2, 3, 4] },
      link: false,
      orderedList: false,
      codeBlock: false,
      trailingNode: false,
    }),
    RichLink,
    PlainOrderedList,
    PlainCodeBlock,
    FigureImage,
    EmbedNode,
    MembersDivider,
    PlainTable,
    TableRow,
    PlainTableHeader,
    PlainTableCell,
    // Shown in the editor only (a decoration): never part of the HTML.
    Placeholder.configure({ placeholder: 'ここに本文を書きます…' }),
    ConsoleKeys.configure({ onEscape: options.onEscape ?? null, onLink: options.onLink ?? null }),
    BlockCommands,
    // 文字数 as src/lib/reading-time.ts counts it (whitespace out).
    CharacterCount.configure({ textCounter: countCharacters }),
    ...(options.slashMenu ? [slashMenuExtension(options.slashMenu)] : []),
  ];
}

/** What the content API stores: '' for an empty document, no empty paragraph at the end. */
export function editorHtml(editor: Editor): string {
  if (editor.isEmpty) return '';
  return editor.getHTML().replace(/(?:<p><\/p>)+$/, '');
}
