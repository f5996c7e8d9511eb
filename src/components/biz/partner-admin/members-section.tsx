import { Link } from '@/components/layout/site-link';
import type { PartnerMember } from '@/server/features/partners/members';
import { MembersListSection } from '@/components/biz/members-list-section';
import styles from './partner-admin.module.css';

/** メンバー: who acts for the partner. Staff add and remove them on the programme's screen. */
export function MembersSection({
  partnerId,
  members,
  staffView,
}: {
  partnerId: string;
  members: PartnerMember[];
  staffView: boolean;
}) {
  return (
    <MembersListSection
      members={members}
      footer={
        staffView ? (
          <p>
            <Link href={`/biz/axis-admin/${partnerId}#members`}>
              メンバーを追加・削除する（パートナー企業の編集画面）
            </Link>
          </p>
        ) : (
          <p className={styles.hint}>メンバーの追加・削除は担当者にご連絡ください。</p>
        )
      }
    />
  );
}
