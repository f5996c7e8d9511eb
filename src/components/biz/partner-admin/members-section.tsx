import Link from 'next/link';
import biz from '@/components/biz/biz-admin.module.css';
import type { PartnerMember } from '@/server/partners/members';
import { BizListSection } from '@/components/biz/biz-section';
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
    <BizListSection
      id="members"
      title="メンバー"
      items={members}
      unit="人"
      empty="メンバーはまだいません。"
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
    >
      <ul className={biz.memberList}>
        {members.map((member) => (
          <li key={member.userId} className={biz.member}>
            <span className={biz.memberWho}>
              {member.displayName}
              <span>{member.email}</span>
            </span>
          </li>
        ))}
      </ul>
    </BizListSection>
  );
}
