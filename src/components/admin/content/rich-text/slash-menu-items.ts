import type { Editor } from '@tiptap/react';
import { foldForSearch } from '@/lib/japanese-text';
import { hasMembersDivider } from './members-divider-node';

/**
 * What the `/` insert menu offers, and how what is typed after the slash narrows it: the
 * Japanese label, its reading in kana (typed before conversion) and in romaji, and the English
 * words Ghost and WordPress use.
 */

export type SlashDialog = 'image' | 'embed';

export type SlashItem = {
  key: string;
  label: string;
  description: string;
  /** Readings and other names the filter matches (kana, romaji, English). */
  keywords: readonly string[];
  /** A block inserted in place of the typed `/…`, or a dialog opened for it. */
  action: { run: (editor: Editor) => void } | { dialog: SlashDialog };
  /** False when it cannot be inserted here (the document already has its one divider). */
  available?: (editor: Editor) => boolean;
};

export const SLASH_ITEMS: readonly SlashItem[] = [
  ...([2, 3, 4] as const).map((level): SlashItem => ({
    key: `h${level}`,
    label: `見出し${level}`,
    description: level === 2 ? '大見出し' : level === 3 ? '中見出し' : '小見出し',
    keywords: ['みだし', 'midashi', 'heading', `h${level}`],
    action: { run: (editor) => editor.chain().focus().setHeading({ level }).run() },
  })),
  {
    key: 'image',
    label: '画像',
    description: 'メディアライブラリか URL から',
    keywords: ['がぞう', 'gazou', 'image', 'photo', 'しゃしん'],
    action: { dialog: 'image' },
  },
  {
    key: 'embed',
    label: '埋め込み',
    description: 'YouTube・Vimeo・X・Instagram',
    keywords: ['うめこみ', 'umekomi', 'embed', 'youtube', 'vimeo', 'x', 'instagram', 'どうが'],
    action: { dialog: 'embed' },
  },
  {
    key: 'blockquote',
    label: '引用',
    description: '他の文章からの引用',
    keywords: ['いんよう', 'inyou', 'quote', 'blockquote'],
    action: { run: (editor) => editor.chain().focus().setBlockquote().run() },
  },
  {
    key: 'rule',
    label: '区切り線',
    description: '話題の切れ目の横線',
    keywords: ['くぎりせん', 'kugirisen', 'divider', 'hr', 'line'],
    action: { run: (editor) => editor.chain().focus().setHorizontalRule().run() },
  },
  {
    key: 'bulletList',
    label: '箇条書き',
    description: '順番のないリスト',
    keywords: ['かじょうがき', 'kajougaki', 'list', 'bullet', 'ul'],
    action: { run: (editor) => editor.chain().focus().toggleBulletList().run() },
  },
  {
    key: 'orderedList',
    label: '番号付きリスト',
    description: '1. 2. 3. と番号が付くリスト',
    keywords: ['ばんごう', 'bangou', 'list', 'numbered', 'ol'],
    action: { run: (editor) => editor.chain().focus().toggleOrderedList().run() },
  },
  {
    key: 'table',
    label: '表',
    description: '3行3列、見出し行つき',
    keywords: ['ひょう', 'hyou', 'table'],
    action: {
      run: (editor) =>
        editor.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
  },
  {
    key: 'codeBlock',
    label: 'コードブロック',
    description: 'プログラムのコード',
    keywords: ['こーど', 'ko-do', 'code', 'pre'],
    action: { run: (editor) => editor.chain().focus().setCodeBlock().run() },
  },
  {
    key: 'divider',
    label: '会員限定の区切り',
    description: 'ここから下を会員限定にする（1つまで）',
    keywords: ['かいいん', 'kaiin', 'paywall', 'members', 'げんてい'],
    action: { run: (editor) => editor.chain().focus().insertMembersDivider().run() },
    available: (editor) => !hasMembersDivider(editor.state.doc),
  },
];

/**
 * The items whose label or a keyword contains what was typed after the slash, folded the way
 * site search folds (full-width letters, hiragana and katakana alike); labels that start with
 * it first. An empty query lists them all.
 */
export function filterSlashItems(
  items: readonly SlashItem[],
  query: string,
  editor?: Editor,
): SlashItem[] {
  const available = items.filter((item) => !editor || !item.available || item.available(editor));
  const folded = foldForSearch(query).trim();
  if (!folded) return available;
  const rank = (item: SlashItem): number => {
    const label = foldForSearch(item.label);
    if (label.startsWith(folded)) return 0;
    if (label.includes(folded)) return 1;
    return item.keywords.some((keyword) => foldForSearch(keyword).includes(folded)) ? 2 : 3;
  };
  return available
    .map((item, index) => ({ item, index, rank: rank(item) }))
    .filter(({ rank: r }) => r < 3)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}
