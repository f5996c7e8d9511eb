import { Fragment, type Ref } from 'react';
import { KeyAlternatives } from '@/components/ui/key-alternatives';
import styles from './rich-text-editor.module.css';

/** Mac users read Cmd for Ctrl; the list says so once rather than doubling every row. */
const KEYS: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ['Esc'], action: '編集エリアから抜ける（次の Tab で次の項目へ）' },
  { keys: ['Tab', 'Shift+Tab'], action: '表では次・前のセルへ、リストでは字下げ・字上げ' },
  { keys: ['Ctrl+B'], action: '太字' },
  { keys: ['Ctrl+I'], action: '斜体' },
  { keys: ['Ctrl+U'], action: '下線' },
  { keys: ['Ctrl+Shift+S'], action: '取り消し線' },
  { keys: ['Ctrl+K'], action: 'リンク' },
  { keys: ['Ctrl+Alt+2', 'Ctrl+Alt+3', 'Ctrl+Alt+4'], action: '見出し2・3・4' },
  { keys: ['Ctrl+Alt+0'], action: '本文（段落）に戻す' },
  { keys: ['Ctrl+Shift+8'], action: '箇条書き' },
  { keys: ['Ctrl+Shift+7'], action: '番号付きリスト' },
  { keys: ['Ctrl+Shift+B'], action: '引用' },
  { keys: ['Ctrl+Z', 'Ctrl+Shift+Z'], action: '元に戻す・やり直す' },
  { keys: ['Shift+Enter'], action: '段落内で改行' },
  {
    keys: ['/'],
    action:
      '挿入メニュー（段落の先頭か空白の後で。続けて入力すると絞り込み、↑↓ で選び Enter で挿入、Esc で閉じる）',
  },
  {
    keys: ['Alt+↑', 'Alt+↓'],
    action: 'カーソルのあるブロック（段落・見出し・画像・リストの項目など）を上・下へ移動',
  },
];

/** The editor's keys, behind a disclosure; its summary is where Esc sends the focus. */
export function RichTextKeyboardHelp({ summaryRef }: { summaryRef: Ref<HTMLElement> }) {
  return (
    <details className={styles.help}>
      <summary ref={summaryRef} className={styles.helpSummary}>
        キーボード操作
      </summary>
      <div className={styles.helpBody}>
        <p>
          書式ボタンの列へは Tab で移り、ボタンの間は ← → で移動します。Mac では Ctrl の代わりに Cmd
          を使います。
        </p>
        <dl className={styles.keys}>
          {KEYS.map(({ keys, action }) => (
            <Fragment key={action}>
              <dt>
                <KeyAlternatives keys={keys} or=" / " kbdClassName={styles.key} />
              </dt>
              <dd>{action}</dd>
            </Fragment>
          ))}
        </dl>
        <p>
          ブロックの左の ⋮⋮
          をドラッグすると、マウスでも移動できます。リンクの画面では、サイト内の記事をタイトルで探せます。
          画像・埋め込み・会員限定の区切りは、矢印キーで選んで Delete で削除できます。URL
          だけを空の段落に貼り付けると、YouTube・Vimeo・X・Instagram は埋め込みになります。
        </p>
      </div>
    </details>
  );
}
