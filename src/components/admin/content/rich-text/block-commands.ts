import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import { NodeSelection, Selection, TextSelection, type Transaction } from '@tiptap/pm/state';
import { Extension, type JSONContent } from '@tiptap/react';

/**
 * Block-level commands: inserting a block (image, embed, table…) so that the writer carries on
 * after it, and moving the block at the selection up or down (Alt+↑ / Alt+↓, and the handle).
 */

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    blocks: {
      /** Inserts a block at the selection and puts the caret in a paragraph right after it. */
      insertBlock: (content: JSONContent) => ReturnType;
      /** Swaps the block at the selection with the one before (-1) or after (1) it. */
      moveBlock: (direction: -1 | 1) => ReturnType;
    };
  }
}

/**
 * Puts the caret after the content the last step inserted: in the empty paragraph that follows
 * it, or in a new one. (ProseMirror would otherwise pick the nearest text position, which after
 * a block at the end of the document is the end of the paragraph before it: what one typed next
 * went there, above the image.)
 */
export function caretAfterInsertion(tr: Transaction): Transaction {
  const last = tr.steps.length - 1;
  if (last < 0) return tr;
  let end = -1;
  tr.mapping.maps[last]!.forEach((_from, _to, _newFrom, newTo) => {
    end = newTo;
  });
  if (end < 0) return tr;
  // A block put into the middle of a paragraph split it: the step ends inside the second half.
  const $inside = tr.doc.resolve(end);
  if ($inside.parent.isTextblock && $inside.parentOffset === 0 && $inside.depth > 0) {
    end = $inside.before();
  }
  const $end = tr.doc.resolve(end);
  const after = $end.nodeAfter;
  if (after?.type.name === 'paragraph' && after.content.size === 0) {
    return tr.setSelection(TextSelection.create(tr.doc, end + 1)).scrollIntoView();
  }
  const paragraph = tr.doc.type.schema.nodes.paragraph;
  const index = $end.index();
  if (paragraph && $end.parent.canReplaceWith(index, index, paragraph)) {
    tr.insert(end, paragraph.create());
    return tr.setSelection(TextSelection.create(tr.doc, end + 1)).scrollIntoView();
  }
  return tr.setSelection(Selection.near(tr.doc.resolve(end))).scrollIntoView();
}

/** Replaces the selection with a block node (an empty paragraph it is in goes). */
export function insertBlockNode(tr: Transaction, node: ProseMirrorNode): Transaction {
  return caretAfterInsertion(tr.replaceSelectionWith(node, false));
}

/**
 * The block a move acts on: a selected block node, else the list item or the top-level block
 * the selection is in (a paragraph of a quote moves the quote; a list item moves in its list).
 */
export function movableBlock(selection: Selection): { pos: number; node: ProseMirrorNode } | null {
  if (selection instanceof NodeSelection && selection.node.isBlock) {
    const $pos = selection.$from;
    if ($pos.depth === 0 || $pos.parent.type.name === 'listItem') {
      return { pos: selection.from, node: selection.node };
    }
  }
  const $from: ResolvedPos = selection.$from;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name === 'listItem' || depth === 1) return { pos: $from.before(depth), node };
  }
  return null;
}

/** Moves the block at the selection one place up or down, keeping the selection on it. */
export function moveBlockTransaction(tr: Transaction, direction: -1 | 1): Transaction | null {
  const block = movableBlock(tr.selection);
  if (!block) return null;
  const $pos = tr.doc.resolve(block.pos);
  const parent = $pos.parent;
  const index = $pos.index();
  const siblingIndex = index + direction;
  if (siblingIndex < 0 || siblingIndex >= parent.childCount) return null;
  const sibling = parent.child(siblingIndex);
  const start = direction < 0 ? block.pos - sibling.nodeSize : block.pos;
  const end =
    direction < 0
      ? block.pos + block.node.nodeSize
      : block.pos + block.node.nodeSize + sibling.nodeSize;
  const swapped = direction < 0 ? [block.node, sibling] : [sibling, block.node];
  const offset = direction < 0 ? -sibling.nodeSize : sibling.nodeSize;
  const { anchor, head } = tr.selection;
  const wasNode = tr.selection instanceof NodeSelection;
  tr.replaceWith(start, end, swapped);
  const newPos = block.pos + offset;
  const selection = wasNode
    ? NodeSelection.create(tr.doc, newPos)
    : TextSelection.create(tr.doc, anchor + offset, head + offset);
  return tr.setSelection(selection).scrollIntoView();
}

export const BlockCommands = Extension.create({
  name: 'blocks',

  addCommands() {
    return {
      insertBlock:
        (content) =>
        ({ tr, state, dispatch }) => {
          const node = state.schema.nodeFromJSON(content);
          if (dispatch) insertBlockNode(tr, node);
          return true;
        },
      moveBlock:
        (direction) =>
        ({ tr, state, dispatch }) =>
          moveBlockTransaction(dispatch ? tr : state.tr, direction) !== null,
    };
  },

  addKeyboardShortcuts() {
    // Not while an IME is composing: the keys belong to the conversion then.
    const move = (direction: -1 | 1) => () =>
      !this.editor.view.composing && this.editor.commands.moveBlock(direction);
    return { 'Alt-ArrowUp': move(-1), 'Alt-ArrowDown': move(1) };
  },
});
