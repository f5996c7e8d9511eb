import styles from '@/components/biz/biz-admin.module.css';
import { Field, PostForm } from '@/components/forms/form.client';
import { SubmitButton } from '@/components/ui/button';
import type { Flash } from '@/lib/http/flash';
import type { PartnerMember } from '@/server/features/partners/members';
import { FORM_KEY, flashFor, typedIn } from '@/lib/http/form-flash';
import { MembersListSection } from '@/components/biz/members-list-section';
import { RowError } from './messages';

export const MEMBER_ADD_KEY = 'member-add';
export const memberRemoveKey = (userId: string) => `member-remove-${userId}`;

/** A partner's members: who they are, 「外す」 for each, and adding one by e-mail. */
export function MemberSection({
  partnerId,
  partnerName,
  members,
  flash,
}: {
  partnerId: string;
  partnerName: string;
  members: PartnerMember[];
  flash: Flash | null;
}) {
  const action = `/api/biz/axis-admin/partners/${partnerId}/members`;
  const addFlash = flashFor(flash, MEMBER_ADD_KEY);
  return (
    <MembersListSection
      members={members}
      intro={
        <p className={styles.lead}>
          メンバーは、この企業の管理画面を開き、求人を作成して審査に出せます。追加・削除は記録に残ります。
        </p>
      }
      footer={
        <div className={styles.narrow}>
          <PostForm
            action={action}
            submitLabel="メンバーを追加"
            submitColor="black"
            initialErrors={addFlash}
            fullWidthSubmit={false}
          >
            <input type="hidden" name={FORM_KEY} value={MEMBER_ADD_KEY} />
            <input type="hidden" name="intent" value="add" />
            <Field
              name="email"
              label="追加する会員のメールアドレス"
              type="email"
              autoComplete="off"
              required
              maxLength={254}
              hint={`会員登録済みのメールアドレスを入力してください。その会員が${partnerName}のメンバーになります。`}
              defaultValue={typedIn(addFlash, 'email')}
            />
          </PostForm>
        </div>
      }
      rowAction={(member) => (
        <>
          <form method="post" action={action} className={styles.inlineForm}>
            <input type="hidden" name={FORM_KEY} value={memberRemoveKey(member.userId)} />
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="userId" value={member.userId} />
            <SubmitButton color="white">
              外す<span className="visually-hidden">：{member.email}</span>
            </SubmitButton>
          </form>
          <RowError message={flashFor(flash, memberRemoveKey(member.userId))?.message} />
        </>
      )}
    />
  );
}
