'use client';

import { NodeSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import type { Editor } from '@tiptap/react';
import { type DragEvent, type RefObject, useEffect, useState } from 'react';
import styles from './rich-text-editor.module.css';

/**
 * The handle beside the block under the pointer: drag it to move the block (ProseMirror's own
 * drop moves it, as when an image is dragged), click it to select the block. The keyboard does
 * the same with Alt+↑ / Alt+↓ (block-commands.ts), so the handle is for the mouse only and
 * hidden from assistive technology.
 *
 * TipTap's drag-handle extension has no release for this TipTap version and needs the
 * collaboration packages (Yjs) as peers; this is the part of it the console needs.
 */

type Hovered = { pos: number; top: number };

/** The top-level block an element is part of, with its position in the document. */
export function topLevelBlockAt(
  view: EditorView,
  target: Node | null,
): { pos: number; dom: HTMLElement } | null {
  let element: Node | null = target;
  while (element && element.parentNode !== view.dom) element = element.parentNode;
  if (!(element instanceof HTMLElement)) return null;
  let found: number | null = null;
  view.state.doc.forEach((_node, offset) => {
    if (found === null && view.nodeDOM(offset) === element) found = offset;
  });
  return found === null ? null : { pos: found, dom: element };
}

export function BlockHandle({
  editor,
  rootRef,
}: {
  editor: Editor;
  rootRef: RefObject<HTMLElement | null>;
}) {
  const [hovered, setHovered] = useState<Hovered | null>(null);

  useEffect(() => {
    const root = rootRef.current;
    const { view } = editor;
    if (!root) return;
    const onMove = (event: MouseEvent) => {
      const block = topLevelBlockAt(view, event.target as Node);
      if (!block) return;
      const top = block.dom.getBoundingClientRect().top - root.getBoundingClientRect().top;
      setHovered((prev) =>
        prev?.pos === block.pos && prev.top === top ? prev : { pos: block.pos, top },
      );
    };
    const onLeave = () => setHovered(null);
    view.dom.addEventListener('mousemove', onMove);
    root.addEventListener('mouseleave', onLeave);
    // Positions change with every edit: the handle waits for the next pointer move.
    const onUpdate = () => setHovered(null);
    editor.on('update', onUpdate);
    return () => {
      view.dom.removeEventListener('mousemove', onMove);
      root.removeEventListener('mouseleave', onLeave);
      editor.off('update', onUpdate);
    };
  }, [editor, rootRef]);

  if (!hovered) return null;

  const select = (): NodeSelection | null => {
    const { view } = editor;
    if (hovered.pos >= view.state.doc.content.size) return null;
    const selection = NodeSelection.create(view.state.doc, hovered.pos);
    view.dispatch(view.state.tr.setSelection(selection));
    return selection;
  };

  const onDragStart = (event: DragEvent<HTMLDivElement>) => {
    const { view } = editor;
    const selection = select();
    if (!selection) return;
    const slice = selection.content();
    const { dom, text } = view.serializeForClipboard(slice);
    event.dataTransfer.clearData();
    event.dataTransfer.setData('text/html', dom.innerHTML);
    event.dataTransfer.setData('text/plain', text);
    event.dataTransfer.effectAllowed = 'copyMove';
    const blockDom = view.nodeDOM(hovered.pos);
    if (blockDom instanceof HTMLElement) event.dataTransfer.setDragImage(blockDom, 0, 0);
    // As ProseMirror records its own drags: the drop moves the selected node.
    const dragging: EditorView['dragging'] & { node: NodeSelection } = {
      slice,
      move: true,
      node: selection,
    };
    view.dragging = dragging;
  };

  return (
    <div
      className={styles.blockHandle}
      style={{ top: hovered.top }}
      draggable
      aria-hidden="true"
      title="ドラッグしてブロックを移動（キーボードでは Alt+↑ / Alt+↓）"
      data-block-handle=""
      onClick={() => {
        if (select()) editor.commands.focus();
      }}
      onDragStart={onDragStart}
      onDragEnd={() => {
        editor.view.dragging = null;
      }}
    >
      ⋮⋮
    </div>
  );
}
