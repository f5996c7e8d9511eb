import type { ReactNode } from 'react';
import styles from '@/components/biz/biz-admin.module.css';
import type { PartnerMember } from '@/server/features/partners/members';
import { BizListSection } from '@/components/biz/biz-section';

/**
 * メンバー: who acts for a partner, by name and address, as the partner's own screen and the
 * programme staff's screen both show them; staff get `rowAction` (外す) beside each member.
 */
export function MembersListSection({
  members,
  intro,
  footer,
  rowAction,
}: {
  members: PartnerMember[];
  intro?: ReactNode;
  footer: ReactNode;
  rowAction?: (member: PartnerMember) => ReactNode;
}) {
  return (
    <BizListSection
      id="members"
      title="メンバー"
      items={members}
      unit="人"
      empty="メンバーはまだいません。"
      intro={intro}
      footer={footer}
    >
      <ul className={styles.memberList}>
        {members.map((member) => (
          <li key={member.userId} className={styles.member}>
            <div className={styles.memberWho}>
              <strong>{member.displayName}</strong>
              <span>{member.email}</span>
            </div>
            {rowAction?.(member)}
          </li>
        ))}
      </ul>
    </BizListSection>
  );
}
