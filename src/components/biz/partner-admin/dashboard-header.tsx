import { Link } from '@/components/layout/site-link';
import biz from '@/components/biz/biz-admin.module.css';
import { PartnerLogo } from './partner-logo';
import { formatDateJa } from '@/lib/format';
import { SUBMISSION_REFUSAL_MESSAGES } from '@/server/features/partners/partner-access';
import { CONTRACT_STATE_LABELS } from '@/lib/partners/contract-state';
import type { PartnerDetail } from '@/server/features/partners/partners';
import { type QuotaUsage, quotaText } from './dashboard-model';
import styles from './partner-admin.module.css';

/** 「2026年4月1日〜2027年3月31日」; an open end said in words. */
function contractPeriod({ contractStart, contractEnd }: PartnerDetail['contract']): string {
  if (!contractStart) return 'なし';
  const day = (iso: string) => formatDateJa(`${iso}T12:00:00+09:00`);
  return `${day(contractStart)}〜${contractEnd ? day(contractEnd) : '終了日の定めなし'}`;
}

/**
 * The top of the dashboard: who it is for, where the contract stands, how much of the quota
 * is in use, and, when a listing could not be submitted now, why (before anyone tries).
 */
export function DashboardHeader({
  partner,
  usage,
  staffView,
}: {
  partner: PartnerDetail;
  usage: QuotaUsage;
  staffView: boolean;
}) {
  return (
    <header className={styles.header}>
      <div className={styles.identity}>
        {partner.logo ? (
          <PartnerLogo logo={partner.logo} alt="" sizes="6rem" className={styles.headerLogo} />
        ) : null}
        <h1 className={biz.title}>
          <span className={styles.kicker}>
            パートナー管理<span className="visually-hidden">：</span>
          </span>
          <span className={styles.name}>{partner.name}</span>
        </h1>
      </div>
      {staffView ? (
        <p className={styles.staffNote}>
          スタッフとして表示しています。契約とメンバーの変更は
          <Link href={`/biz/axis-admin/${partner.id}`}>パートナー企業の編集画面</Link>
          で行えます。
        </p>
      ) : null}
      <section className={styles.contract} aria-labelledby="partner-contract">
        <h2 id="partner-contract" className={styles.contractTitle}>
          ご契約
        </h2>
        <dl className={styles.contractFacts}>
          <div>
            <dt>契約状況</dt>
            <dd>
              <span
                className={
                  partner.contractState === 'active'
                    ? `${biz.badge} ${biz.badgeStrong}`
                    : `${biz.badge} ${biz.badgeMuted}`
                }
              >
                {CONTRACT_STATE_LABELS[partner.contractState]}
              </span>
            </dd>
          </div>
          <div>
            <dt>契約期間</dt>
            <dd>{contractPeriod(partner.contract)}</dd>
          </div>
          <div>
            <dt>掲載枠</dt>
            <dd>{quotaText(usage)}</dd>
          </div>
        </dl>
        <p className={styles.hint}>
          審査中と公開中の求人が掲載枠を使います。下書きはいつでも保存できます。
        </p>
        {usage.refusal ? (
          <div className={styles.warning}>
            <p className={styles.warningTitle}>現在、求人を審査に出すことはできません</p>
            <p>{SUBMISSION_REFUSAL_MESSAGES[usage.refusal]}</p>
          </div>
        ) : null}
      </section>
    </header>
  );
}
