'use client';

import type { EditorView } from '@tiptap/pm/view';
import { EditorContent, type Editor, useEditor } from '@tiptap/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type Embed, embedFromUrl } from '@/lib/cms/embeds';
import { editorHtml, relFor, richTextExtensions } from './extensions';
import { EDIT_IMAGE_EVENT, type FigureImageAttributes } from './figure-image-node';
import { RichTextKeyboardHelp } from './keyboard-help';
import { cleanPastedHtml } from './paste-cleanup';
import { EmbedDialog, ImageDialog, type LinkChoice, LinkDialog } from './rich-text-dialogs';
import styles from './rich-text-editor.module.css';
import { RichTextToolbar } from './rich-text-toolbar';

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

type Dialog =
  | { kind: 'link'; initial: LinkChoice | null }
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
  view.dispatch(view.state.tr.replaceWith($from.before(), $from.after(), node).scrollIntoView());
  return true;
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

  // Created once: a new extension list or content on each render would make TipTap reconfigure
  // the view while the reader types (and an IME is composing).
  const [extensions] = useState(() =>
    richTextExtensions({
      onEscape: () => helpRef.current?.focus(),
      onLink: () => openLinkRef.current(),
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
    const href = editor.getAttributes('link').href as string | undefined;
    const target = editor.getAttributes('link').target as string | undefined;
    setDialog({ kind: 'link', initial: href ? { href, newTab: target === '_blank' } : null });
  };
  useEffect(() => {
    openLinkRef.current = openLink;
  });

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
  /** Back to the text once the dialog has closed (it returns focus to its opener first). */
  const closeAndWrite = () => {
    setDialog(null);
    requestAnimationFrame(() => {
      if (!editor.isDestroyed) editor.commands.focus();
    });
  };

  const applyLink = ({ href, newTab }: LinkChoice) => {
    // Other rel tokens (sponsored, nofollow) stay; the new-tab ones follow the choice.
    const kept = String(editor.getAttributes('link').rel ?? '')
      .split(/\s+/)
      .filter((token) => token !== 'noopener' && token !== 'noreferrer')
      .join(' ');
    const attrs = { href, target: newTab ? '_blank' : null, rel: relFor(kept, newTab) };
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs }] }).run();
    } else {
      chain.extendMarkRange('link').setLink(attrs).run();
    }
    closeAndWrite();
  };

  const applyImage = (image: FigureImageAttributes) => {
    if (dialog?.kind === 'image' && dialog.initial && editor.isActive('image')) {
      editor.chain().focus().updateAttributes('image', image).run();
    } else {
      editor.chain().focus().insertContent({ type: 'image', attrs: image }).run();
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
      <EditorContent editor={editor} className={styles.surface} />
      <RichTextKeyboardHelp summaryRef={helpRef} />
      {dialog?.kind === 'link' ? (
        <LinkDialog
          initial={dialog.initial}
          onApply={applyLink}
          onRemove={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            closeAndWrite();
          }}
          onClose={closeDialog}
        />
      ) : null}
      {dialog?.kind === 'image' ? (
        <ImageDialog initial={dialog.initial} onApply={applyImage} onClose={closeDialog} />
      ) : null}
      {dialog?.kind === 'embed' ? <EmbedDialog onApply={applyEmbed} onClose={closeDialog} /> : null}
    </div>
  );
}
