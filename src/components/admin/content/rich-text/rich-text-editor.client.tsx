'use client';

import { TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { EditorContent, type Editor, useEditor } from '@tiptap/react';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { type Embed, embedFromUrl } from '@/lib/cms/embeds';
import { BlockHandle } from './block-handle';
import { insertBlockNode } from './block-commands';
import { editorHtml, relFor, richTextExtensions } from './extensions';
import { EDIT_IMAGE_EVENT, type FigureImageAttributes } from './figure-image-node';
import { RichTextKeyboardHelp } from './keyboard-help';
import { cleanPastedHtml } from './paste-cleanup';
import { EmbedDialog, ImageDialog, type LinkChoice, LinkDialog } from './rich-text-dialogs';
import styles from './rich-text-editor.module.css';
import { RichTextToolbar } from './rich-text-toolbar';
import { SlashMenu, type SlashMenuBridge, type SlashMenuState, slashOptionId } from './slash-menu';
import { WritingStats } from './writing-stats';

export type RichTextEditorProps = {
  /** The editing area's id (the textarea's before the editor is ready). */
  id: string;
  /** The stored HTML; read once, when the editor starts. */
  initialHtml: string;
  /** The HTML to store, on every change ('' when empty). Debouncing is the caller's. */
  onChange: (html: string) => void;
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
};

const CARET_CLEARANCE = { top: 200, bottom: 48, left: 0, right: 0 };

/** The text a link applies to: the selection when the dialog was asked for. */
type LinkRange = { from: number; to: number };

type Dialog =
  | { kind: 'link'; initial: LinkChoice | null; range: LinkRange }
  | { kind: 'image'; initial: FigureImageAttributes | null }
  | { kind: 'embed' };

/**
 * An empty paragraph given just a URL of YouTube, Vimeo, X or Instagram becomes the embed,
 * as in most editors; any other paste goes through the schema (after cleanPastedHtml).
 */
function pasteUrlAsEmbed(view: EditorView, event: ClipboardEvent): boolean {
  const text = event.clipboardData?.getData('text/plain').trim() ?? '';
  if (!text || /\s/.test(text)) return false;
  const embed = embedFromUrl(text);
  const { selection, schema } = view.state;
  const { $from } = selection;
  if (!embed || !selection.empty || $from.parent.type.name !== 'paragraph') return false;
  if ($from.parent.content.size > 0 || $from.depth !== 1) return false;
  const node = schema.nodes.embed?.create({ ...embed });
  if (!node) return false;
  view.dispatch(insertBlockNode(view.state.tr, node));
  return true;
}

/**
 * The editor's selection brought up to date with the page's: a script (or a macro) that
 * selects text and presses Ctrl+K at once can be quicker than the selectionchange event
 * ProseMirror waits for.
 */
function syncSelectionFromPage(view: EditorView): void {
  // A selected image or embed is ProseMirror's own (the page shows no text selection there).
  if (!(view.state.selection instanceof TextSelection)) return;
  const selection = view.dom.ownerDocument.getSelection();
  if (!selection?.anchorNode || !selection.focusNode) return;
  if (!view.dom.contains(selection.anchorNode) || !view.dom.contains(selection.focusNode)) return;
  try {
    const anchor = view.posAtDOM(selection.anchorNode, selection.anchorOffset);
    const head = view.posAtDOM(selection.focusNode, selection.focusOffset);
    const current = view.state.selection;
    if (current.anchor === anchor && current.head === head) return;
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, anchor, head)));
  } catch {
    // A position ProseMirror cannot map (inside a node view): its own selection stands.
  }
}

function selectedImage(editor: Editor): FigureImageAttributes | null {
  return editor.isActive('image') ? (editor.getAttributes('image') as FigureImageAttributes) : null;
}

export function RichTextEditor({
  id,
  initialHtml,
  onChange,
  labelledBy,
  describedBy,
  invalid,
}: RichTextEditorProps) {
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const rootRef = useRef<HTMLDivElement>(null);
  const helpRef = useRef<HTMLElement>(null);
  const fallbackRef = useRef<HTMLTextAreaElement>(null);
  const openLinkRef = useRef<() => void>(() => {});
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const slashListId = useId();
  const [slash, setSlashState] = useState<SlashMenuState | null>(null);
  // The plugin asks for the highlighted item between renders: the ref is the truth.
  const slashRef = useRef<SlashMenuState | null>(null);
  const [slashBridge] = useState<SlashMenuBridge>(() => {
    const set = (menu: SlashMenuState | null) => {
      slashRef.current = menu;
      setSlashState(menu);
    };
    return {
      // Each new query starts again at the first match.
      show: set,
      move: (delta) => {
        const menu = slashRef.current;
        if (!menu || menu.items.length === 0) return;
        const count = menu.items.length;
        set({ ...menu, active: (menu.active + delta + count) % count });
      },
      chooseActive: () => {
        const menu = slashRef.current;
        const item = menu?.items[menu.active];
        if (!menu || !item) return false;
        menu.choose(item);
        return true;
      },
    };
  });

  // Created once: a new extension list or content on each render would make TipTap reconfigure
  // the view while the reader types (and an IME is composing).
  const [extensions] = useState(() =>
    richTextExtensions({
      onEscape: () => helpRef.current?.focus(),
      onLink: () => openLinkRef.current(),
      slashMenu: {
        bridge: () => slashBridge,
        onDialog: (kind) =>
          setDialog(kind === 'image' ? { kind: 'image', initial: null } : { kind: 'embed' }),
      },
    }),
  );
  const [content] = useState(initialHtml);
  // Read as soon as the page is hydrated, before the editor replaces the stand-in: what a
  // reader typed into it meanwhile is not lost.
  const typedBeforeReady = useRef<string | null>(null);
  useLayoutEffect(() => {
    typedBeforeReady.current = fallbackRef.current?.value ?? null;
  }, []);
  const editorProps = useMemo(() => {
    const attributes: Record<string, string> = {
      id,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': labelledBy,
      spellcheck: 'true',
    };
    if (describedBy) attributes['aria-describedby'] = describedBy;
    if (invalid) attributes['aria-invalid'] = 'true';
    return {
      attributes,
      transformPastedHTML: cleanPastedHtml,
      handlePaste: pasteUrlAsEmbed,
      // Keep the caret clear of the sticky site header and toolbar when the view scrolls to it.
      scrollThreshold: CARET_CLEARANCE,
      scrollMargin: CARET_CLEARANCE,
    };
  }, [id, labelledBy, describedBy, invalid]);

  const editor = useEditor({
    immediatelyRender: false,
    extensions,
    content,
    editorProps,
    onCreate: ({ editor: created }) => {
      const typed = typedBeforeReady.current;
      // A textarea reports line breaks as \n whatever the HTML had: only a real edit counts.
      if (typed !== null && typed !== content.replace(/\r\n?/g, '\n')) {
        created.commands.setContent(typed);
        onChangeRef.current(editorHtml(created));
      }
    },
    onUpdate: ({ editor: updated }) => onChangeRef.current(editorHtml(updated)),
  });

  const openLink = () => {
    if (!editor) return;
    syncSelectionFromPage(editor.view);
    const { from, to } = editor.state.selection;
    const href = editor.getAttributes('link').href as string | undefined;
    const target = editor.getAttributes('link').target as string | undefined;
    // At once, not at the next render: the keys typed right after Ctrl+K (a macro types the
    // URL straight away) go to the dialog's field, not over the selected text.
    flushSync(() =>
      setDialog({
        kind: 'link',
        initial: href ? { href, newTab: target === '_blank' } : null,
        range: { from, to },
      }),
    );
  };
  useEffect(() => {
    openLinkRef.current = openLink;
  });

  // The textbox points at the `/` menu's highlighted item while it is open.
  const activeSlashItem = slash?.items[slash.active];
  useEffect(() => {
    const dom = editor?.view.dom;
    if (!dom) return;
    if (activeSlashItem) {
      dom.setAttribute('aria-controls', slashListId);
      dom.setAttribute('aria-activedescendant', slashOptionId(slashListId, activeSlashItem));
    } else {
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    }
  }, [editor, activeSlashItem, slashListId]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root || !editor) return;
    const onEditImage = () => setDialog({ kind: 'image', initial: selectedImage(editor) });
    root.addEventListener(EDIT_IMAGE_EVENT, onEditImage);
    return () => root.removeEventListener(EDIT_IMAGE_EVENT, onEditImage);
  }, [editor]);

  const rootClass = [styles.root, invalid ? styles.invalid : null].filter(Boolean).join(' ');

  if (!editor) {
    // Before the editor is ready (and without JavaScript) the field still shows its HTML.
    return (
      <div className={rootClass}>
        <p className={styles.fallbackNote}>
          エディターを準備しています。それまでは HTML で表示します。
        </p>
        <textarea
          ref={fallbackRef}
          id={id}
          className={styles.fallback}
          defaultValue={initialHtml}
          aria-labelledby={labelledBy}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        />
      </div>
    );
  }

  const closeDialog = () => setDialog(null);
  /**
   * A dialog's focus back to the text, with the editor's own selection put in the page at the
   * same moment (ProseMirror's focus): a plain focus() of the editable puts the caret at its
   * start until ProseMirror restores it a little later, and a key typed in between (a macro, a
   * busy machine) would land there.
   */
  const returnFocus = () => {
    if (!editor.isDestroyed) editor.view.focus();
  };
  /** Back to the text once the dialog has closed (it returns focus to its opener first). */
  const closeAndWrite = () => {
    setDialog(null);
    requestAnimationFrame(() => {
      if (!editor.isDestroyed) editor.commands.focus();
    });
  };

  const applyLink = ({ href, newTab }: LinkChoice, range: LinkRange) => {
    // Exactly the text selected when the dialog was asked for.
    const size = editor.state.doc.content.size;
    editor.commands.setTextSelection({
      from: Math.min(range.from, size),
      to: Math.min(range.to, size),
    });
    // Other rel tokens (sponsored, nofollow) stay; the new-tab ones follow the choice.
    const kept = String(editor.getAttributes('link').rel ?? '')
      .split(/\s+/)
      .filter((token) => token !== 'noopener' && token !== 'noreferrer')
      .join(' ');
    const attrs = { href, target: newTab ? '_blank' : null, rel: relFor(kept, newTab) };
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs }] }).run();
    } else if (editor.state.selection.empty) {
      chain.extendMarkRange('link').setLink(attrs).run();
    } else {
      chain.setLink(attrs).run();
    }
    // The caret after the link, as in a word processor: a linked text left selected is replaced
    // by the next key typed (and with it the link), whenever focus comes back before that key.
    editor.commands.setTextSelection(editor.state.selection.to);
    closeAndWrite();
  };

  const applyImage = (image: FigureImageAttributes) => {
    if (dialog?.kind === 'image' && dialog.initial && editor.isActive('image')) {
      editor.chain().focus().updateAttributes('image', image).run();
    } else {
      editor.chain().focus().insertBlock({ type: 'image', attrs: image }).run();
    }
    closeAndWrite();
  };

  const applyEmbed = (embed: Embed) => {
    editor.chain().focus().insertEmbed(embed).run();
    closeAndWrite();
  };

  return (
    <div ref={rootRef} className={rootClass}>
      <RichTextToolbar
        editor={editor}
        controls={id}
        actions={{
          onLink: openLink,
          onImage: () => setDialog({ kind: 'image', initial: selectedImage(editor) }),
          onEmbed: () => setDialog({ kind: 'embed' }),
        }}
      />
      <BlockHandle editor={editor} rootRef={rootRef} />
      <EditorContent editor={editor} className={styles.surface} />
      {slash ? (
        <SlashMenu
          id={slashListId}
          menu={slash}
          onHover={(index) => {
            const menu = slashRef.current;
            if (menu) {
              slashRef.current = { ...menu, active: index };
              setSlashState(slashRef.current);
            }
          }}
        />
      ) : null}
      <WritingStats editor={editor} />
      <RichTextKeyboardHelp summaryRef={helpRef} />
      {dialog?.kind === 'link' ? (
        <LinkDialog
          initial={dialog.initial}
          onApply={(link) => applyLink(link, dialog.range)}
          onRemove={() => {
            editor.commands.setTextSelection(dialog.range);
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            closeAndWrite();
          }}
          onClose={closeDialog}
          returnFocus={returnFocus}
        />
      ) : null}
      {dialog?.kind === 'image' ? (
        <ImageDialog
          initial={dialog.initial}
          onApply={applyImage}
          onClose={closeDialog}
          returnFocus={returnFocus}
        />
      ) : null}
      {dialog?.kind === 'embed' ? (
        <EmbedDialog onApply={applyEmbed} onClose={closeDialog} returnFocus={returnFocus} />
      ) : null}
    </div>
  );
}
