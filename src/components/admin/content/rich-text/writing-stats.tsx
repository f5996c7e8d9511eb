'use client';

import { type Editor, useEditorState } from '@tiptap/react';
import { readingTimeLabel } from '@/lib/reading-time';
import styles from './rich-text-editor.module.css';
import { formatNumber } from '@/lib/format';

/**
 * The body's 文字数 and 読了時間 under the editor, as the text changes (TipTap's character
 * count, counting as src/lib/reading-time.ts does). Read by a screen reader when asked, not at
 * every keystroke.
 */
export function WritingStats({ editor, id }: { editor: Editor; id?: string }) {
  const characters = useEditorState({
    editor,
    selector: ({ editor: e }) => e.storage.characterCount.characters(),
  });
  return (
    <p id={id} className={styles.stats}>
      <span>
        文字数 <strong>{formatNumber(characters)}</strong>
      </span>
      <span>
        読了時間 <strong>{readingTimeLabel(characters)}</strong>
      </span>
    </p>
  );
}
