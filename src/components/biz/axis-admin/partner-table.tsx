import { Link } from '@/components/layout/site-link';
import styles from '@/components/biz/biz-admin.module.css';
import { ButtonLink } from '@/components/ui/button';
import { CONTRACT_STATE_LABELS, type ContractState } from '@/lib/partners/contract-state';
import type { PartnerSummary } from '@/server/features/partners/partners';
import { contractPeriod, quotaText } from './contract-text';
import { StaffFilter, StaffSearchInput } from '@/components/admin/staff-list-page';
import { BizListSection } from '@/components/biz/biz-section';
import { TableHead } from '@/components/ui/table-head';

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
    <BizListSection
      id="partners"
      title="パートナー企業"
      items={items}
      total={totalCount}
      unit="社"
      action={
        <ButtonLink href="/biz/axis-admin/new" color="black" width="auto">
          新しいパートナー企業を登録
        </ButtonLink>
      }
      path="/biz/axis-admin"
      search={{
        filters: (
          <StaffFilter id="partner-q" label="企業名・紹介文で検索" className={styles.searchField}>
            <StaffSearchInput id="partner-q" defaultValue={q} />
          </StaffFilter>
        ),
        submitLabel: '検索',
        filtered: !!q,
        clearLabel: '検索をやめる',
        keep: { ipage: params.ipage },
      }}
      empty={
        q ? (
          `「${q}」に一致するパートナー企業はありません。`
        ) : totalCount === 0 ? (
          'パートナー企業はまだ登録されていません。'
        ) : (
          <>
            このページにはパートナー企業がありません。
            <Link href="/biz/axis-admin#partners">1ページ目へ</Link>
          </>
        )
      }
      pagination={{
        label: 'パートナー企業のページ送り',
        params: { ...params, q: q || undefined },
        page,
        totalPages: pageCount,
      }}
    >
      <table className={styles.table}>
        <TableHead
          columns={[
            '企業名',
            '契約状況',
            '掲載枠',
            { label: 'メンバー', className: styles.number },
          ]}
        />
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
    </BizListSection>
  );
}
