import type { ReactNode } from 'react';
import usersStyles from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import {
  VERSION_ACTION_LABELS,
  consolePaths,
  type HistoryProps,
  type VersionRow,
} from '@/lib/admin-content';
import { diffFields, type DiffPart, type FieldDiff } from '@/lib/content-diff';
import { formatDateTime } from '@/lib/format';
import contentStyles from './content.module.css';
import styles from './version-history.module.css';

/** The content API status a version left the item in, in words. */
const API_STATUS_LABELS: Readonly<Record<string, string>> = {
  PUBLISH: '公開中',
  DRAFT: '下書き',
  PUBLISH_AND_DRAFT: '公開中（未公開の変更あり）',
  CLOSED: '非公開',
};

export const apiStatusLabel = (status: string) => API_STATUS_LABELS[status] ?? status;

const versionName = (v: VersionRow) =>
  `${formatDateTime(v.createdAt)} ${VERSION_ACTION_LABELS[v.action]}（${v.actor}）`;

const COMPARE_FORM = 'history-compare';

/**
 * An item's versions, newest first: who did what when, two of them chosen to compare (a GET
 * form, so it works without JavaScript), the difference, and a form per version to restore it.
 * The page above it gives the heading.
 */
export function VersionHistory({ def, endpoint, id, title, versions, compare }: HistoryProps) {
  const fromId = compare?.from.id ?? versions[1]?.id;
  const toId = compare?.to.id ?? versions[0]?.id;

  return (
    <div className={contentStyles.editor}>
      <p className={usersStyles.lead}>
        「{title || '（無題）'}
        」の変更の記録です。2つの版を選んで違いを比べたり、以前の版に戻したりできます。戻すと、その内容が新しい下書きとして保存されます（公開中の内容は、公開するまで変わりません）。
      </p>

      {compare ? <Comparison def={def} compare={compare} /> : null}

      <section className={styles.diff} aria-labelledby="history-versions-title">
        <h2 id="history-versions-title" className={usersStyles.sectionTitle}>
          版の一覧（{versions.length}件）
        </h2>
        {versions.length === 0 ? (
          <p className={contentStyles.emptyBox}>まだ記録された版はありません。</p>
        ) : (
          <>
            <p className={contentStyles.hint}>
              「元」と「先」を1つずつ選び、一覧の下の「選んだ2つの版を比較」を押します。
            </p>
            <ol className={styles.versions}>
              {versions.map((version, index) => (
                <li key={version.id} className={styles.version}>
                  <ComparePick side="from" version={version} checked={version.id === fromId} />
                  <ComparePick side="to" version={version} checked={version.id === toId} />
                  <div className={styles.versionFacts}>
                    <p>
                      <strong>{VERSION_ACTION_LABELS[version.action]}</strong>
                      {index === 0 ? '（最新）' : ''}
                    </p>
                    <p className={contentStyles.hint}>
                      <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
                      ・{version.actor}・{apiStatusLabel(version.status)}
                    </p>
                  </div>
                  {index === 0 ? null : (
                    <form
                      method="post"
                      action={consolePaths.apiRestore(endpoint, id)}
                      className={styles.restore}
                    >
                      <input type="hidden" name="version" value={version.id} />
                      <button
                        type="submit"
                        className={contentStyles.secondaryButton}
                        aria-label={`この版に戻す: ${versionName(version)}`}
                      >
                        この版に戻す
                      </button>
                    </form>
                  )}
                </li>
              ))}
            </ol>
            <form
              id={COMPARE_FORM}
              method="get"
              action={consolePaths.history(endpoint, id)}
              className={styles.compareBar}
            >
              <Button
                type="submit"
                color="black"
                width="auto"
                height={44}
                disabled={versions.length < 2}
              >
                選んだ2つの版を比較
              </Button>
            </form>
          </>
        )}
      </section>
    </div>
  );
}

/** One of a version's two radio buttons: the comparison's 元 (from) or 先 (to). */
function ComparePick({
  side,
  version,
  checked,
}: {
  side: 'from' | 'to';
  version: VersionRow;
  checked: boolean;
}) {
  const mark = side === 'from' ? '元' : '先';
  return (
    <div className={styles.versionPick}>
      <label>
        <span aria-hidden="true">{mark}</span>
        <input
          type="radio"
          name={side}
          value={version.id}
          form={COMPARE_FORM}
          defaultChecked={checked}
          aria-label={`比較${mark}: ${versionName(version)}`}
        />
      </label>
    </div>
  );
}

function Comparison({
  def,
  compare,
}: {
  def: HistoryProps['def'];
  compare: NonNullable<HistoryProps['compare']>;
}) {
  const { from, to } = compare;
  const missing = from.data === null || to.data === null;
  const diffs = missing ? [] : diffFields(def, from.data, to.data);
  return (
    <section className={styles.diff} aria-labelledby="history-compare-title">
      <h2 id="history-compare-title" className={usersStyles.sectionTitle}>
        比較
      </h2>
      <dl className={styles.values}>
        <dt>元</dt>
        <dd>{versionName(from)}</dd>
        <dt>先</dt>
        <dd>{versionName(to)}</dd>
      </dl>
      {missing ? (
        <p className={contentStyles.emptyBox}>
          この版の内容は記録されていないため、比較できません。
        </p>
      ) : diffs.length === 0 ? (
        <p className={contentStyles.emptyBox}>変更はありません。</p>
      ) : (
        diffs.map((diff) => <FieldChange key={diff.id} diff={diff} />)
      )}
    </section>
  );
}

/** Added or removed text, marked in words as well as by the element (screen readers). */
function Changed({ op, children }: { op: 'ins' | 'del'; children: ReactNode }) {
  const Tag = op;
  return (
    <Tag>
      <span className={styles.mark}>{op === 'ins' ? '追加' : '削除'}</span>
      {children}
    </Tag>
  );
}

const formatWords = (labels: readonly string[]) => (labels.length ? labels.join('、') : '書式なし');

/**
 * One stretch of a text diff. A change may be one character, so its words (「追加」「削除」
 * 「書式の変更」 and where it ends) are for screen readers; sighted readers see the colour plus
 * a strike-through, an underline or a dotted underline, which read without colour too.
 * Formatting is said in visible words, since a link's address cannot be seen otherwise.
 */
function Part({ part }: { part: DiffPart }) {
  if (part.op === 'same') return <span>{part.text}</span>;
  if (part.op === 'format')
    return (
      <span className={styles.formatChange}>
        <span className={contentStyles.srOnly}>［書式の変更］</span>
        {part.text}
        <small className={styles.formatNote}>
          （{formatWords(part.before)} → {formatWords(part.after)}）
        </small>
        <span className={contentStyles.srOnly}>［書式の変更ここまで］</span>
      </span>
    );
  const Tag = part.op;
  const word = part.op === 'ins' ? '追加' : '削除';
  // A paragraph break alone would be invisible.
  const text = part.text.trim() ? part.text : part.text.replace(/\n/g, '↵\n');
  return (
    <Tag>
      <span className={contentStyles.srOnly}>［{word}］</span>
      {text}
      {part.marks ? (
        <small className={styles.formatNote}>（{formatWords(part.marks)}）</small>
      ) : null}
      <span className={contentStyles.srOnly}>［{word}ここまで］</span>
    </Tag>
  );
}

/** One field's change: its label, then the marked text or the value before and after. */
export function FieldChange({ diff }: { diff: FieldDiff }) {
  return (
    <div className={styles.diffField}>
      <h3>{diff.label}</h3>
      {diff.type === 'text' ? (
        <p className={styles.diffText}>
          {diff.parts.map((part, i) => (
            <Part key={i} part={part} />
          ))}
        </p>
      ) : (
        <dl className={`${styles.values} ${styles.diffText}`}>
          <dt>変更前</dt>
          <dd>
            <Changed op="del">{diff.before}</Changed>
          </dd>
          <dt>変更後</dt>
          <dd>
            <Changed op="ins">{diff.after}</Changed>
          </dd>
        </dl>
      )}
    </div>
  );
}
