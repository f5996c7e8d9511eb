import { SubmitButton } from '@/components/ui/button';
import { InputRow, SelectRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import { StaffList, StaffSection } from '@/components/admin/staff-list-page';
import { formatDateJa } from '@/lib/format';
import { type Flash } from '@/lib/http/flash';
import { FORM_KEY, flashFor, typedIn } from '@/lib/http/form-flash';

/**
 * /admin/organizations (法人プラン, docs/decisions/058-organizations.md): each organisation with
 * its seats used, domains, admins and billing, its edit form folded under it, and the form that
 * registers one. Plain forms: the screen works without JavaScript.
 */

export type OrganizationView = {
  id: string;
  name: string;
  addressee: string;
  billingContactName: string | null;
  billingContactEmail: string | null;
  seats: number;
  renewalSeats: number | null;
  used: number;
  planKey: string;
  billing: 'card' | 'invoice';
  domains: string[];
  admins: string[];
  providerCustomerId: string | null;
  createdAt: Date;
};

export const CREATE_KEY = 'organization-create';
export const editKey = (id: string) => `organization-edit-${id}`;

const BILLING_LABELS = { card: 'カード払い', invoice: '請求書払い（銀行振込）' } as const;

export function OrganizationList({
  organizations,
  planNames,
  flash,
}: {
  organizations: readonly OrganizationView[];
  planNames: ReadonlyMap<string, string>;
  flash: Flash | null;
}) {
  return (
    <StaffSection id="organizations" title="法人の一覧">
      <StaffList
        count={`${organizations.length}社`}
        empty={organizations.length ? null : '法人はまだ登録されていません。'}
      >
        <ul className={styles.list}>
          {organizations.map((o) => (
            <li key={o.id} id={`org-${o.id}`} className={styles.item}>
              <h3 className={styles.itemTitle}>{o.name}</h3>
              <dl className={styles.facts}>
                <dt>ID</dt>
                <dd className={styles.code}>{o.id}</dd>
                <dt>席</dt>
                <dd>
                  {o.used} / {o.seats} 席を使用（残り {Math.max(0, o.seats - o.used)} 席）
                  {o.renewalSeats !== null ? `／次回更新から ${o.renewalSeats} 席` : ''}
                </dd>
                <dt>ドメイン</dt>
                <dd>{o.domains.join('、') || 'なし（招待のみ）'}</dd>
                <dt>プラン</dt>
                <dd>
                  {planNames.get(o.planKey) ?? o.planKey}／{BILLING_LABELS[o.billing]}
                </dd>
                <dt>宛名</dt>
                <dd>{o.addressee}</dd>
                <dt>請求先</dt>
                <dd>
                  {o.billingContactName || o.billingContactEmail
                    ? `${o.billingContactName ?? ''} ${o.billingContactEmail ?? ''}`.trim()
                    : '未設定'}
                </dd>
                <dt>管理者</dt>
                <dd>{o.admins.join('、') || '未設定（npm run admin -- org-set-admin）'}</dd>
                <dt>登録日</dt>
                <dd>{formatDateJa(o.createdAt.toISOString())}</dd>
              </dl>
              <details open={flashFor(flash, editKey(o.id)) !== null}>
                <summary>{o.name} を編集する</summary>
                <OrganizationForm
                  formKey={editKey(o.id)}
                  action={`/api/admin/organizations/${encodeURIComponent(o.id)}`}
                  current={o}
                  flash={flash}
                  submit="保存する"
                />
              </details>
            </li>
          ))}
        </ul>
      </StaffList>
    </StaffSection>
  );
}

export function CreateOrganizationSection({ flash }: { flash: Flash | null }) {
  return (
    <StaffSection id="create" title="法人を登録する">
      <OrganizationForm
        formKey={CREATE_KEY}
        action="/api/admin/organizations"
        current={null}
        flash={flash}
        submit="登録する"
      />
    </StaffSection>
  );
}

function OrganizationForm({
  formKey,
  action,
  current,
  flash,
  submit,
}: {
  formKey: string;
  action: string;
  current: OrganizationView | null;
  flash: Flash | null;
  submit: string;
}) {
  const failed = flashFor(flash, formKey);
  const error = (name: string) => failed?.fieldErrors[name] ?? null;
  const value = (name: string, saved: string | number | null | undefined) =>
    typedIn(failed, name) ?? (saved === null || saved === undefined ? '' : String(saved));
  const id = (name: string) => `${formKey}-${name}`;
  const field = (name: string, label: string, saved: string | number | null | undefined) => ({
    id: id(name),
    name,
    label,
    defaultValue: value(name, saved),
    error: error(name),
  });
  return (
    <form method="post" action={action} className={styles.form} noValidate>
      <input type="hidden" name={FORM_KEY} value={formKey} />
      <InputRow {...field('name', '法人名', current?.name)} required maxLength={100} />
      <InputRow
        {...field('addressee', '宛名', current?.addressee)}
        required
        maxLength={120}
        hint="請求書・領収書に印字する宛名です（例：株式会社○○ 御中）。"
      />
      <InputRow
        {...field('billingContactName', '請求先のご担当者名', current?.billingContactName)}
        maxLength={60}
      />
      <InputRow
        {...field('billingContactEmail', '請求先のメールアドレス', current?.billingContactEmail)}
        type="email"
        autoComplete="off"
      />
      <InputRow
        {...field('seats', '席数', current?.seats)}
        required
        inputMode="numeric"
        hint="期間の途中で増やせます。減らすときは「次回更新からの席数」に入れてください。"
      />
      <InputRow
        {...field('renewalSeats', '次回更新からの席数', current?.renewalSeats)}
        inputMode="numeric"
        hint="空欄なら変わりません。"
      />
      <InputRow
        {...field('domains', 'メールアドレスのドメイン', current?.domains.join(' '))}
        autoComplete="off"
        hint="スペースかカンマで区切って複数入力できます（例：example.co.jp）。このドメインちょうどの確認済みアドレスだけが参加できます（サブドメインは含みません）。"
      />
      <SelectRow
        {...field('planKey', 'プラン', current?.planKey ?? 'yearly')}
        options={[
          { value: 'yearly', label: '年額プラン' },
          { value: 'monthly', label: '月額プラン' },
        ]}
      />
      <SelectRow
        {...field('billing', '支払い方法', current?.billing ?? 'invoice')}
        options={[
          { value: 'invoice', label: BILLING_LABELS.invoice },
          { value: 'card', label: BILLING_LABELS.card },
        ]}
      />
      <div className={styles.actions}>
        <SubmitButton>{submit}</SubmitButton>
      </div>
    </form>
  );
}
