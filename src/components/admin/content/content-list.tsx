import { Link } from '@/components/layout/site-link';
import usersStyles from '@/components/admin/users/users.module.css';
import {
  StaffFilter,
  StaffList,
  StaffSearchInput,
  StaffSelect,
} from '@/components/admin/staff-list-page';
import { ButtonLink } from '@/components/ui/button';
import {
  BULK_ACTIONS,
  BULK_ACTION_LABELS,
  CONSOLE_STATUS_LABELS,
  consolePaths,
  type ConsoleSort,
  type ConsoleStatus,
  type ContentListProps,
  type ContentListQuery,
} from '@/lib/admin-content';
import { SUBMISSION_STATE_LABELS } from '@/lib/access/console-permissions';
import { formatDateTime, formatNumber } from '@/lib/format';
import contentStyles from './content.module.css';
import styles from './content-list.module.css';
import presenceStyles from './editing-presence.module.css';
import { editingMarker } from '@/lib/cms/presence';
import { SelectAll } from './select-all.client';
import { StatusBadge } from './status-badge';
import { Options } from '@/components/forms/options';
import { TableHead } from '@/components/ui/table-head';

export const SORT_LABELS: Readonly<Record<ConsoleSort, string>> = {
  updated: '更新日順',
  published: '公開日順',
  created: '作成日順',
  title: 'タイトル順',
};

const STATUS_FILTERS: readonly ConsoleStatus[] = ['draft', 'scheduled', 'published', 'changed'];
const STATUS_FILTER_LABELS: Readonly<Record<ConsoleStatus, string>> = {
  ...CONSOLE_STATUS_LABELS,
  changed: '未公開の変更あり',
};

/** The query as URL parameters, defaults left out (the list's links stay short). */
export function listParams(query: ContentListQuery): Record<string, string | undefined> {
  return {
    q: query.q || undefined,
    status: query.status || undefined,
    category: query.category || undefined,
    sort: query.sort === 'updated' ? undefined : query.sort,
  };
}

const isFiltered = (query: ContentListQuery) => Boolean(query.q || query.status || query.category);

/**
 * One endpoint's items for editors: a filter form that works without JavaScript (GET), the
 * items as a table that turns into cards on a phone, the count, paging and the empty state.
 * The page above it gives the heading.
 */
export function ContentList({
  def,
  rows,
  totalCount,
  perPage,
  query,
  categories,
  bulk = false,
}: ContentListProps) {
  const base = consolePaths.list(def.endpoint);
  const filtered = isFiltered(query);
  const totalPages = Math.max(1, Math.ceil(totalCount / Math.max(1, perPage)));
  const titleLabel = def.fields[0]?.label ?? 'タイトル';

  return (
    <div className={contentStyles.editor}>
      {def.kind === 'list' ? (
        <div className={styles.listHead}>
          <p className={usersStyles.lead}>
            タイトルを選ぶと編集画面が開きます。下書きは自動で保存されます。
          </p>
          <ButtonLink
            href={consolePaths.create(def.endpoint)}
            color="yellow"
            width="auto"
            height={44}
          >
            新規作成
          </ButtonLink>
        </div>
      ) : null}

      {bulk && rows.length > 0 ? <BulkForm endpoint={def.endpoint} label={def.label} /> : null}

      <StaffList
        path={base}
        search={{
          label: `${def.label}の絞り込み`,
          filters: (
            <>
              <StaffFilter
                id="content-q"
                label="検索"
                className={`${styles.filterField} ${styles.searchField}`}
              >
                <StaffSearchInput id="content-q" defaultValue={query.q} />
              </StaffFilter>
              <StaffSelect
                id="content-status"
                name="status"
                label="状態"
                value={query.status}
                all="すべて"
                className={styles.filterField}
              >
                <Options items={STATUS_FILTERS} label={(status) => STATUS_FILTER_LABELS[status]} />
              </StaffSelect>
              {categories ? (
                <StaffSelect
                  id="content-category"
                  name="category"
                  label="特集"
                  value={query.category}
                  all="すべて"
                  className={styles.filterField}
                >
                  <Options
                    items={categories}
                    value={(category) => category.id}
                    label={(category) => category.label}
                  />
                </StaffSelect>
              ) : null}
              <StaffSelect
                id="content-sort"
                name="sort"
                label="並び順"
                value={query.sort}
                className={styles.filterField}
              >
                <Options
                  items={Object.entries(SORT_LABELS)}
                  value={([sort]) => sort}
                  label={([, label]) => label}
                />
              </StaffSelect>
            </>
          ),
          submitLabel: '絞り込む',
          filtered,
          clearLabel: '条件をクリア',
        }}
        count={
          <>
            <span>
              {filtered ? '条件に一致する' : ''}
              {def.label}: {formatNumber(totalCount)}件
            </span>
            {totalPages > 1 ? (
              <span>
                {query.page} / {totalPages} ページ
              </span>
            ) : null}
          </>
        }
        empty={
          rows.length > 0 ? null : filtered ? (
            <>
              <p>条件に一致する{def.label}はありません。</p>
              <Link href={base}>条件をクリアしてすべて表示</Link>
            </>
          ) : query.page > 1 ? (
            <>
              <p>このページには項目がありません。</p>
              <Link href={base}>最初のページへ</Link>
            </>
          ) : (
            <>
              <p>{def.label}はまだありません。</p>
              {def.kind === 'list' ? (
                <Link href={consolePaths.create(def.endpoint)}>最初の{def.label}を作成する</Link>
              ) : null}
            </>
          )
        }
        emptyAs="div"
        pagination={{
          page: query.page,
          totalPages,
          params: listParams(query),
          label: `${def.label}一覧のページ送り`,
        }}
        classes={{
          search: styles.filters,
          actions: styles.filterActions,
          count: styles.countRow,
          empty: contentStyles.emptyBox,
        }}
      >
        <table className={styles.table}>
          <caption className={contentStyles.srOnly}>
            {def.label}の一覧（{SORT_LABELS[query.sort]}）
          </caption>
          <TableHead
            before={
              bulk ? (
                <th scope="col" className={styles.selectCell}>
                  <SelectAll form={BULK_FORM} name="ids" label="このページの項目をすべて選択" />
                </th>
              ) : null
            }
            columns={[titleLabel, '状態', '更新', '公開日']}
          />
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {bulk ? (
                  <td className={styles.selectCell}>
                    <input
                      type="checkbox"
                      name="ids"
                      value={row.id}
                      form={BULK_FORM}
                      aria-label={`「${row.title || row.id}」を選択`}
                    />
                  </td>
                ) : null}
                <th scope="row" className={styles.titleCell}>
                  <Link href={consolePaths.edit(def.endpoint, row.id)}>
                    {row.title || (
                      <span className={styles.untitled}>
                        （{titleLabel}なし: {row.id}）
                      </span>
                    )}
                  </Link>
                  {row.editing?.length ? (
                    <span className={presenceStyles.marker}>{editingMarker(row.editing)}</span>
                  ) : null}
                </th>
                <td data-label="状態">
                  <StatusBadge status={row.status} scheduledAt={row.scheduledAt} />
                  {row.review && row.review !== 'published' ? (
                    <span className={styles.by}>寄稿: {SUBMISSION_STATE_LABELS[row.review]}</span>
                  ) : null}
                </td>
                <td data-label="更新">
                  <time dateTime={row.updatedAt}>{formatDateTime(row.updatedAt)}</time>
                  {row.updatedBy ? <span className={styles.by}>{row.updatedBy}</span> : null}
                </td>
                <td data-label="公開日">
                  {row.publishedAt ? (
                    <time dateTime={row.publishedAt}>{formatDateTime(row.publishedAt)}</time>
                  ) : (
                    <span className={styles.untitled}>未公開</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </StaffList>
    </div>
  );
}

/** The form the rows' checkboxes belong to (they sit in the table, outside it). */
const BULK_FORM = 'content-bulk';

/**
 * The bulk action: what to do to the checked rows. A GET to the confirmation screen, which
 * lists what will change before anything does (no JavaScript needed).
 */
function BulkForm({ endpoint, label }: { endpoint: string; label: string }) {
  return (
    <form
      id={BULK_FORM}
      method="get"
      action={consolePaths.bulkConfirm(endpoint)}
      className={contentStyles.bulkForm}
      aria-label={`${label}の一括操作`}
    >
      <label htmlFor="content-bulk-action" className={contentStyles.label}>
        選んだ項目を
      </label>
      <select id="content-bulk-action" name="action" className={contentStyles.input}>
        <Options items={BULK_ACTIONS} label={(action) => BULK_ACTION_LABELS[action]} />
      </select>
      <button type="submit" className={contentStyles.secondaryButton}>
        確認へ進む
      </button>
      <p className={contentStyles.hint}>
        一覧の左端で項目を選びます。実行の前に確認画面で対象を確かめられます。
      </p>
    </form>
  );
}
