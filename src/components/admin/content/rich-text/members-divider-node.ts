import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { Node } from '@tiptap/react';

/**
 * The members' divider (src/lib/cms/members-divider.ts): an `<hr>` with this one
 * attribute ends the lead of a members' item. Spelled out here because that module is
 * server-only; a test checks both agree.
 */
export const MEMBERS_DIVIDER_ATTRIBUTE = 'data-members-divider';
export const MEMBERS_DIVIDER_LABEL = 'ここから会員限定';
/** Beside the label: the divider is what visitors see up to (docs/decisions/029-divider-is-the-lead.md). */
export const MEMBERS_DIVIDER_HINT = 'この線より上が、訪問者に見える部分です';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    membersDivider: {
      /** Inserts the divider at the selection; refused when the document already has one. */
      insertMembersDivider: () => ReturnType;
    };
  }
}

export function hasMembersDivider(doc: ProseMirrorNode): boolean {
  let found = false;
  doc.descendants((node) => {
    if (found) return false;
    if (node.type.name === MembersDivider.name) found = true;
    return !found;
  });
  return found;
}

/**
 * The divider's own group, allowed only between top-level blocks (extensions.ts widens the
 * document to it): it ends the lead, so it never sits inside a quote, list or table.
 */
export const TOP_LEVEL_GROUP = 'topLevel';

export const MembersDivider = Node.create({
  name: 'membersDivider',
  group: TOP_LEVEL_GROUP,
  atom: true,
  selectable: true,
  draggable: true,

  parseHTML() {
    // Before the plain rule (priority 50), which would take any <hr>.
    return [{ tag: `hr[${MEMBERS_DIVIDER_ATTRIBUTE}]`, priority: 60 }];
  },

  renderHTML() {
    return ['hr', { [MEMBERS_DIVIDER_ATTRIBUTE]: '' }];
  },

  addNodeView() {
    return () => {
      const dom = document.createElement('div');
      dom.dataset.rt = 'members-divider';
      dom.contentEditable = 'false';
      dom.setAttribute('role', 'separator');
      dom.setAttribute('aria-label', MEMBERS_DIVIDER_LABEL);
      const label = document.createElement('span');
      label.textContent = MEMBERS_DIVIDER_LABEL;
      const hint = document.createElement('span');
      hint.dataset.rtHint = '';
      hint.textContent = MEMBERS_DIVIDER_HINT;
      dom.append(label, hint);
      return { dom };
    };
  },

  addCommands() {
    return {
      insertMembersDivider:
        () =>
        ({ state, chain }) => {
          if (hasMembersDivider(state.doc)) return false;
          return (
            chain()
              .insertContent({ type: this.name })
              // As TipTap's horizontal rule does: the cursor goes into the text after the
              // divider (a new paragraph at the end), so what is typed next is the members'
              // part, never the lead, and the divider itself is not left selected.
              .command(({ tr, dispatch }) => {
                if (!dispatch) return true;
                const { $to } = tr.selection;
                if ($to.nodeAfter?.isTextblock) {
                  tr.setSelection(TextSelection.create(tr.doc, $to.pos + 1));
                } else {
                  const paragraph = $to.parent.type.contentMatch.defaultType?.create();
                  if (paragraph) {
                    tr.insert($to.pos, paragraph);
                    tr.setSelection(TextSelection.create(tr.doc, $to.pos + 1));
                  }
                }
                tr.scrollIntoView();
                return true;
              })
              .run()
          );
        },
    };
  },

  addProseMirrorPlugins() {
    const name = this.name;
    return [
      new Plugin({
        key: new PluginKey('singleMembersDivider'),
        // The access policy reads the first divider only, so a pasted or dropped second one
        // would be a marker that means nothing: only the first is kept.
        appendTransaction(transactions, _oldState, newState) {
          if (!transactions.some((tr) => tr.docChanged)) return null;
          const extra: number[] = [];
          let seen = false;
          newState.doc.descendants((node, pos) => {
            if (node.type.name !== name) return true;
            if (seen) extra.push(pos);
            seen = true;
            return false;
          });
          if (extra.length === 0) return null;
          const tr = newState.tr;
          for (const pos of extra.reverse()) tr.delete(pos, pos + 1);
          return tr;
        },
      }),
    ];
  },
});
