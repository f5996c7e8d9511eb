import Link from 'next/link';
import styles from '@/components/biz/biz-admin.module.css';
import { Button, ButtonLink } from '@/components/ui/button';
import { CONTRACT_STATE_LABELS, type ContractState } from '@/lib/partners/contract-state';
import type { PartnerSummary } from '@/server/partners/partners';
import { contractPeriod, quotaText } from './contract-text';
import { Pagination } from '@/components/listing/list-page';

const STATE_BADGE: Record<ContractState, string | undefined> = {
  active: styles.badgeStrong,
  upcoming: undefined,
  ended: styles.badgeMuted,
  none: styles.badgeMuted,
};

type Props = {
  items: PartnerSummary[];
  totalCount: number;
  page: number;
  pageCount: number;
  q: string;
  /** The screen's other parameters, kept by the search and the page links. */
  params: Record<string, string | undefined>;
};

/** パートナー企業: a search by name or description (GET), the table and its pages. */
export function PartnerTable({ items, totalCount, page, pageCount, q, params }: Props) {
  return (
    <section className={styles.section} aria-labelledby="partners-title" id="partners">
      <div className={styles.sectionHeader}>
        <h2 id="partners-title" className={styles.sectionTitle}>
          パートナー企業
          <span className={styles.count}>{totalCount}社</span>
        </h2>
        <ButtonLink href="/biz/axis-admin/new" color="black" width="auto">
          新しいパートナー企業を登録
        </ButtonLink>
      </div>
      <form method="get" action="/biz/axis-admin#partners" role="search" className={styles.search}>
        {params.ipage ? <input type="hidden" name="ipage" value={params.ipage} /> : null}
        <div className={styles.searchField}>
          <label htmlFor="partner-q" className={styles.label}>
            企業名・紹介文で検索
          </label>
          <input
            id="partner-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={100}
            className={styles.input}
          />
        </div>
        <Button type="submit" color="black" width="auto" height={44}>
          検索
        </Button>
        {q ? (
          <Link href="/biz/axis-admin#partners" className={styles.clear}>
            検索をやめる
          </Link>
        ) : null}
      </form>
      {items.length === 0 ? (
        <p className={styles.empty}>
          {q ? (
            `「${q}」に一致するパートナー企業はありません。`
          ) : totalCount === 0 ? (
            'パートナー企業はまだ登録されていません。'
          ) : (
            <>
              このページにはパートナー企業がありません。
              <Link href="/biz/axis-admin#partners">1ページ目へ</Link>
            </>
          )}
        </p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">企業名</th>
              <th scope="col">契約状況</th>
              <th scope="col">掲載枠</th>
              <th scope="col" className={styles.number}>
                メンバー
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((partner) => {
              const period = contractPeriod(partner.contract);
              return (
                <tr key={partner.id}>
                  <td data-label="企業名">
                    <Link href={`/biz/axis-admin/${partner.id}`}>{partner.name}</Link>
                  </td>
                  <td data-label="契約状況">
                    {/* One child: the stacked layout gives a cell one column beside its label. */}
                    <div>
                      <span className={`${styles.badge} ${STATE_BADGE[partner.contractState]}`}>
                        {CONTRACT_STATE_LABELS[partner.contractState]}
                      </span>
                      {period ? <span className={styles.period}>{period}</span> : null}
                    </div>
                  </td>
                  <td data-label="掲載枠">{quotaText(partner.contract)}</td>
                  <td data-label="メンバー" className={styles.number}>
                    {partner.memberCount}人
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pagination
        label="パートナー企業のページ送り"
        basePath="/biz/axis-admin"
        params={{ ...params, q: q || undefined }}
        page={page}
        totalPages={pageCount}
        fragment="partners"
      />
    </section>
  );
}
