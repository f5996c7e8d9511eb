import type { ReactNode } from 'react';
import { FORM_KEY, flashFor, typedIn } from '@/lib/http/form-flash';
import { SubmitButton } from '@/components/ui/button';
import { formatDateJa } from '@/lib/format';
import type { SubscriptionRecord } from '@/lib/auth-state';
import type { Flash } from '@/lib/http/flash';
import { ROLES, type Role } from '@/lib/identity/roles';
import { InputRow, SelectRow } from './form-fields';
import { ROLE_LABELS, SUBSCRIPTION_STATUS_LABELS } from '@/lib/identity/user-labels';
import styles from './users.module.css';
import { StaffSection } from '@/components/admin/staff-list-page';

/**
 * The actions of the user's page, each its own small plain form (they work without
 * JavaScript): a post answers 303 back here with a one-time message; a failure's field errors
 * come back to the form whose `formKey` they carry.
 */

export const USER_FORM_KEYS = {
  role: 'role',
  grant: 'plan-grant',
  revoke: 'plan-revoke',
  partner: 'partner',
  sessions: 'sessions',
} as const;

/** Where on the page each form is, for the failure message's link. */
export const FORM_ANCHORS: Record<string, string> = {
  [USER_FORM_KEYS.role]: '#role',
  [USER_FORM_KEYS.grant]: '#plan',
  [USER_FORM_KEYS.revoke]: '#plan',
  [USER_FORM_KEYS.partner]: '#partner',
  [USER_FORM_KEYS.sessions]: '#sessions',
};

const api = (userId: string, action: string) =>
  `/api/admin/users/${encodeURIComponent(userId)}/${action}`;

const fieldError = (flash: Flash | null, name: string) => flash?.fieldErrors[name] ?? null;

/** One action's plain form: it posts to the user's action route, naming itself by its key. */
function UserActionForm({
  userId,
  action,
  formKey,
  children,
}: {
  userId: string;
  action: string;
  formKey: string;
  children: ReactNode;
}) {
  return (
    <form method="post" action={api(userId, action)} className={styles.form} noValidate>
      <input type="hidden" name={FORM_KEY} value={formKey} />
      {children}
    </form>
  );
}

export function RoleForm({
  userId,
  role,
  isSelf,
  flash,
}: {
  userId: string;
  role: Role;
  isSelf: boolean;
  flash: Flash | null;
}) {
  const mine = flashFor(flash, USER_FORM_KEYS.role);
  return (
    <StaffSection id="role" title="権限">
      <p className={styles.lead}>
        編集者はコンテンツとメディアを、管理者はユーザーや API キーを含むすべてを扱えます。
      </p>
      {isSelf ? (
        <p className={styles.hint}>
          ご自身の管理者権限は外せません（管理者が誰もいなくなるのを防ぐため）。変更はほかの管理者に依頼してください。
        </p>
      ) : null}
      <UserActionForm userId={userId} action="role" formKey={USER_FORM_KEYS.role}>
        <SelectRow
          id="role-select"
          name="role"
          label="新しい権限"
          options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          defaultValue={typedIn(mine, 'role') ?? role}
          error={fieldError(mine, 'role')}
        />
        <div className={styles.actions}>
          <SubmitButton>権限を変更する</SubmitButton>
        </div>
      </UserActionForm>
    </StaffSection>
  );
}

/** grantComplimentary's records (src/server/features/profiles/subscriptions.ts) carry its id prefix. */
const isComplimentary = (s: SubscriptionRecord) => s.id.startsWith('comp_');

function SubscriptionList({ subscriptions }: { subscriptions: SubscriptionRecord[] }) {
  if (subscriptions.length === 0)
    return <p className={styles.muted}>購読・プランの記録はありません。</p>;
  return (
    <ul className={styles.list}>
      {subscriptions.map((s) => (
        <li key={s.id} className={styles.item}>
          <dl className={`${styles.facts} ${styles.inline}`}>
            <dt>プラン</dt>
            <dd>{s.items[0]?.price.product.name ?? '（名前なし）'}</dd>
            <dt>状態</dt>
            <dd>
              {SUBSCRIPTION_STATUS_LABELS[s.status]}
              {s.cancel_at_period_end ? '（解約予定）' : ''}
            </dd>
            <dt>期限</dt>
            <dd>{s.current_period_end ? formatDateJa(s.current_period_end) : 'なし'}</dd>
            <dt>種類</dt>
            <dd>{isComplimentary(s) ? '無償（管理者が付与）' : '決済'}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

export function PlanForms({
  userId,
  summary,
  subscriptions,
  plans,
  flash,
}: {
  userId: string;
  summary: string;
  subscriptions: SubscriptionRecord[];
  /** The site's plan catalogue: a complimentary plan is one of these, never a typed name. */
  plans: readonly { key: string; name: string }[];
  flash: Flash | null;
}) {
  const grant = flashFor(flash, USER_FORM_KEYS.grant);
  const hasComplimentary = subscriptions.some(
    (s) => isComplimentary(s) && (s.status === 'active' || s.status === 'trialing'),
  );
  return (
    <StaffSection id="plan" title="プラン">
      <p>
        現在：<strong>{summary}</strong>
      </p>
      <SubscriptionList subscriptions={subscriptions} />
      <h3 className={styles.itemTitle}>無償プランを付与する</h3>
      <UserActionForm userId={userId} action="plan" formKey={USER_FORM_KEYS.grant}>
        <input type="hidden" name="intent" value="grant" />
        <SelectRow
          id="plan-name"
          name="plan"
          label="プラン"
          required
          hint="プランの一覧（料金ページと同じ）から選びます。会員にはこの名前で表示されます。"
          options={plans.map((plan) => ({ value: plan.key, label: plan.name }))}
          defaultValue={typedIn(grant, 'plan') ?? plans[0]?.key}
          error={fieldError(grant, 'plan')}
        />
        <SelectRow
          id="plan-status"
          name="status"
          label="状態"
          options={[
            { value: 'active', label: '有効' },
            { value: 'trialing', label: 'トライアル' },
          ]}
          defaultValue={typedIn(grant, 'status') ?? 'active'}
          error={fieldError(grant, 'status')}
        />
        <InputRow
          id="plan-days"
          name="days"
          label="期間（日数）"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          hint="空欄にすると期限なしになります。"
          defaultValue={typedIn(grant, 'days') ?? ''}
          error={fieldError(grant, 'days')}
        />
        <div className={styles.actions}>
          <SubmitButton>無償プランを付与する</SubmitButton>
        </div>
      </UserActionForm>
      <UserActionForm userId={userId} action="plan" formKey={USER_FORM_KEYS.revoke}>
        <input type="hidden" name="intent" value="revoke" />
        <p className={styles.hint}>
          {hasComplimentary
            ? '付与した無償プランをすべて取り消します。決済によるプランはそのままです。'
            : '有効な無償プランはありません。'}
        </p>
        <div className={styles.actions}>
          <SubmitButton color="white" disabled={!hasComplimentary}>
            無償プランを取り消す
          </SubmitButton>
        </div>
      </UserActionForm>
    </StaffSection>
  );
}

export function PartnerForm({
  userId,
  partnerId,
  partners,
  flash,
}: {
  userId: string;
  /** null: the user has no public profile, so no partner can be set. */
  partnerId: string | null;
  partners: { id: string; name: string }[];
  flash: Flash | null;
}) {
  const mine = flashFor(flash, USER_FORM_KEYS.partner);
  if (partnerId === null)
    return (
      <StaffSection id="partner" title="パートナー企業">
        <p>このユーザーには公開プロフィールがないため、パートナー企業を設定できません。</p>
      </StaffSection>
    );
  const options = [
    { value: '', label: 'なし' },
    ...partners.map((p) => ({ value: p.id, label: p.name })),
  ];
  // A partner no longer published stays selectable as it is, so saving does not clear it unasked.
  if (partnerId && !partners.some((p) => p.id === partnerId))
    options.push({ value: partnerId, label: `${partnerId}（非公開または削除済み）` });
  return (
    <StaffSection id="partner" title="パートナー企業">
      <p className={styles.lead}>
        パートナー企業のメンバーは、その企業の管理画面を開き、求人を作成して審査に出せます。
      </p>
      <UserActionForm userId={userId} action="partner" formKey={USER_FORM_KEYS.partner}>
        <SelectRow
          id="partner-select"
          name="partner"
          label="所属するパートナー企業"
          hint="公開中のパートナー企業から選びます。「なし」で解除します。"
          options={options}
          defaultValue={typedIn(mine, 'partner') ?? partnerId}
          error={fieldError(mine, 'partner')}
        />
        <div className={styles.actions}>
          <SubmitButton>パートナー企業を保存する</SubmitButton>
        </div>
      </UserActionForm>
    </StaffSection>
  );
}

export function SessionsForm({
  userId,
  activeSessions,
  isSelf,
}: {
  userId: string;
  activeSessions: number;
  isSelf: boolean;
}) {
  return (
    <StaffSection id="sessions" title="ログイン中の端末">
      <p>
        {activeSessions === 0
          ? '現在ログインしている端末はありません。'
          : `現在 ${activeSessions} 台の端末でログインしています。`}
      </p>
      <UserActionForm userId={userId} action="sessions" formKey={USER_FORM_KEYS.sessions}>
        <p className={styles.hint}>
          {isSelf
            ? 'ご自身のアカウントです。実行すると、この端末からもログアウトします。'
            : 'パスワードの漏えいが疑われるときなどに使います。ユーザーは次にサイトを開いたときに、もう一度ログインが必要になります。'}
        </p>
        <div className={styles.actions}>
          <SubmitButton color="white">すべての端末からログアウトさせる</SubmitButton>
        </div>
      </UserActionForm>
    </StaffSection>
  );
}
