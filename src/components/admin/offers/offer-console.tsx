import type { ComponentProps } from 'react';
import { SubmitButton } from '@/components/ui/button';
import type { OfferRowView } from '@/lib/billing/offer-row';
import { InputRow, SelectRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import staff from '@/components/admin/staff.module.css';
import { StaffList, StaffSection } from '@/components/admin/staff-list-page';
import { formatDateJa, formatYen } from '@/lib/format';
import { type Flash } from '@/lib/http/flash';
import { FORM_KEY, flashFor, typedIn } from '@/lib/http/form-flash';

/**
 * /admin/offers: the offers (promotion codes) with their redemptions, cap, expiry and state, a
 * link to copy, a button to deactivate each, and the form that makes one. Plain forms: the
 * screen works without JavaScript.
 */

export const OFFER_FORM_KEY = 'offer-create';

function discountText(o: OfferRowView): string {
  const off = o.kind === 'percent' ? `${o.value}%オフ` : `${formatYen(o.value)}引き`;
  const term =
    o.duration === 'once' ? '初回のみ' : o.duration === 'forever' ? '毎回' : `${o.months}か月`;
  return `${off}（${term}）`;
}

function stateText(o: OfferRowView, now: Date): string {
  // Reaching the cap turns the code off (offers.ts): that, not staff, ended it.
  if (o.cap !== null && o.redeemed >= o.cap) return '上限に達しました';
  if (!o.active) return '無効';
  if (o.expiresAt && o.expiresAt <= now) return '期限切れ';
  return '有効';
}

export function OfferList({
  offers,
  planNames,
  siteUrl,
  now,
}: {
  offers: OfferRowView[];
  planNames: Map<string, string>;
  siteUrl: string;
  now: Date;
}) {
  return (
    <StaffSection id="offers" title="オファーの一覧">
      <StaffList
        count={`${offers.length}件`}
        empty={offers.length ? null : 'オファーはまだありません。'}
      >
        <ul className={styles.list}>
          {offers.map((o) => {
            const link = `${siteUrl}/service-plans?offer=${encodeURIComponent(o.code)}`;
            return (
              <li key={o.id} className={styles.item}>
                <h3 className={styles.itemTitle}>
                  {o.name}（{stateText(o, now)}）
                </h3>
                <dl className={styles.facts}>
                  <dt>コード</dt>
                  <dd className={styles.code}>{o.code}</dd>
                  <dt>割引</dt>
                  <dd>{discountText(o)}</dd>
                  <dt>利用</dt>
                  <dd>
                    {o.redeemed}回{o.cap !== null ? ` ／ 上限 ${o.cap}回` : '（上限なし）'}
                    {o.overCap > 0
                      ? `（ほかに上限の後に完了した申し込み ${o.overCap}回：割引のまま適用）`
                      : ''}
                  </dd>
                  <dt>有効期限</dt>
                  <dd>{o.expiresAt ? formatDateJa(o.expiresAt.toISOString()) : 'なし'}</dd>
                  <dt>対象</dt>
                  <dd>
                    {o.plans.map((k) => planNames.get(k) ?? k).join('、') || 'すべてのプラン'}
                    {o.firstTime ? '／初めての読者のみ' : ''}
                  </dd>
                </dl>
                <label className={staff.label} htmlFor={`link-${o.id}`}>
                  リンク（コピーして使えます）
                </label>
                <input id={`link-${o.id}`} className={styles.input} readOnly value={link} />
                {o.active ? (
                  <form
                    method="post"
                    action={`/api/admin/offers/${encodeURIComponent(o.id)}/deactivate`}
                    className={styles.actions}
                  >
                    <SubmitButton color="white">コード {o.code} を無効にする</SubmitButton>
                  </form>
                ) : null}
              </li>
            );
          })}
        </ul>
      </StaffList>
    </StaffSection>
  );
}

type OfferField = Omit<ComponentProps<typeof InputRow>, 'id' | 'defaultValue' | 'error'> & {
  fallback?: string;
  options?: readonly { value: string; label: string }[];
};

/** The create form's fields, in order (the plans and first-time boxes follow). */
const OFFER_FIELDS: readonly OfferField[] = [
  {
    name: 'name',
    label: 'オファー名',
    required: true,
    maxLength: 40,
    hint: '管理用の名前です（例：春のキャンペーン）。読者には、プランごとに割引の内容から作った名前が表示されます（例：月額プランは「初月半額」、年額プランは「初年度半額」）。',
  },
  {
    name: 'kind',
    label: '割引の種類',
    fallback: 'percent',
    options: [
      { value: 'percent', label: '割合（%）' },
      { value: 'amount', label: '金額（円）' },
    ],
  },
  {
    name: 'value',
    label: '割引の値',
    required: true,
    inputMode: 'numeric',
    hint: '割合なら 1〜100、金額なら税込の円。',
  },
  {
    name: 'duration',
    label: '割引の期間',
    fallback: 'once',
    options: [
      { value: 'once', label: '初回のみ' },
      { value: 'repeating', label: '数か月' },
      { value: 'forever', label: 'ずっと' },
    ],
  },
  { name: 'months', label: '月数（「数か月」のとき）', inputMode: 'numeric' },
  {
    name: 'code',
    label: 'コード',
    required: true,
    maxLength: 40,
    autoComplete: 'off',
    hint: '半角英数字とハイフン（大文字で保存されます）。',
  },
  {
    name: 'expires',
    label: '有効期限',
    type: 'date',
    hint: 'この日の終わり（日本時間）まで使えます。空欄で期限なし。',
  },
  {
    name: 'cap',
    label: '利用回数の上限',
    inputMode: 'numeric',
    hint: '決済まで完了したお申し込みを数えます（失敗・中断は数えません）。上限に達するとコードは無効になります。空欄で上限なし。',
  },
];

export function CreateOfferForm({
  plans,
  flash,
}: {
  plans: readonly { key: string; name: string }[];
  flash: Flash | null;
}) {
  const failed = flashFor(flash, OFFER_FORM_KEY);
  const error = (name: string) => failed?.fieldErrors[name] ?? null;
  const typed = (name: string, fallback = '') => typedIn(failed, name) ?? fallback;
  return (
    <StaffSection id="create-offer" title="オファーを作成する">
      <form method="post" action="/api/admin/offers" className={styles.form} noValidate>
        <input type="hidden" name={FORM_KEY} value={OFFER_FORM_KEY} />
        {OFFER_FIELDS.map(({ name, fallback = '', options, ...rest }) => {
          const shared = {
            id: `offer-${name}`,
            name,
            defaultValue: typed(name, fallback),
            error: error(name),
          };
          return options ? (
            <SelectRow
              key={name}
              {...shared}
              label={rest.label}
              hint={rest.hint}
              options={options}
            />
          ) : (
            <InputRow key={name} {...shared} {...rest} />
          );
        })}
        <fieldset
          className={staff.choices}
          aria-describedby={error('plans') ? 'offer-plans-error' : undefined}
        >
          <legend className={staff.label}>対象のプラン</legend>
          {plans.map((plan) => (
            <label key={plan.key} className={staff.choice}>
              <input
                type="checkbox"
                name={`plan_${plan.key}`}
                defaultChecked={failed ? typedIn(failed, `plan_${plan.key}`) !== undefined : true}
              />{' '}
              {plan.name}
            </label>
          ))}
          {error('plans') ? (
            <p id="offer-plans-error" className={styles.fieldError}>
              {error('plans')}
            </p>
          ) : null}
        </fieldset>
        <label className={staff.choice}>
          <input
            type="checkbox"
            name="firstTime"
            defaultChecked={failed ? typedIn(failed, 'firstTime') !== undefined : true}
          />{' '}
          初めての読者のみ（これまでにプランを持ったことのない読者）
        </label>
        <div className={styles.actions}>
          <SubmitButton>オファーを作成する</SubmitButton>
        </div>
      </form>
    </StaffSection>
  );
}
