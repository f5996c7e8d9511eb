import 'server-only';
import { StripeApiError } from '../errors';
import { type Html, html } from './html';

/**
 * The card form of the checkout and portal pages: its fields, what it checks before the API
 * sees the card, and the API's card errors said in Japanese beside the field they concern.
 * A plain form post, so it works without JavaScript.
 */

export type CardField = 'number' | 'exp' | 'cvc' | 'name';

export type CardInput = {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
};

/** What went wrong with a post: per field, and for the form as a whole (a declined card). */
export type FormErrors = { fields: Partial<Record<CardField, string>>; form?: string };

/**
 * What the form shows again after an error. Only the expiry and the name: the card number
 * and the security code are never written back into a page.
 */
export type CardValues = { exp: string; name: string };

/** What a page with the card form shows: what to correct, and what the form keeps. */
export type CardFormState = { errors?: FormErrors; values?: CardValues };

export type CardRead =
  | { ok: true; card: CardInput; values: CardValues }
  | { ok: false; errors: FormErrors; values: CardValues };

export const DECLINED_MESSAGE = 'カードが拒否されました。別のカードをお試しください。';
export const INSUFFICIENT_FUNDS_MESSAGE =
  'カードのご利用可能額が不足しているため、お支払いできませんでした。別のカードをお試しください。';

type FieldSpec = {
  id: string;
  label: string;
  hint: string;
  autocomplete: string;
  numeric: boolean;
  maxLength: number;
};

const FIELDS: Record<CardField, FieldSpec> = {
  number: {
    id: 'card-number',
    label: 'カード番号',
    hint: 'カード表面の数字（空白はあってもなくてもかまいません）',
    autocomplete: 'cc-number',
    numeric: true,
    maxLength: 23,
  },
  exp: {
    id: 'card-exp',
    label: '有効期限',
    hint: '月/年（例：04/30）',
    autocomplete: 'cc-exp',
    numeric: true,
    maxLength: 7,
  },
  cvc: {
    id: 'card-cvc',
    label: 'セキュリティコード',
    hint: 'カード裏面の3桁または4桁の数字',
    autocomplete: 'cc-csc',
    numeric: true,
    maxLength: 4,
  },
  name: {
    id: 'card-name',
    label: 'カード名義',
    hint: 'カードに記載のとおり（例：TARO YAMADA）',
    autocomplete: 'cc-name',
    numeric: false,
    maxLength: 100,
  },
};

/** Full-width digits and slashes, as Japanese input methods may type them, made plain. */
function plain(value: string | null): string {
  return (value ?? '').normalize('NFKC').trim();
}

export function readCardForm(form: URLSearchParams, now = new Date()): CardRead {
  const number = plain(form.get('number')).replace(/[\s-]/g, '');
  const exp = plain(form.get('exp')).replace(/\s/g, '');
  const cvc = plain(form.get('cvc'));
  const name = plain(form.get('name')).slice(0, 100);
  const values = { exp: exp.slice(0, 7), name };
  const fields: FormErrors['fields'] = {};

  if (!number) fields.number = 'カード番号を入力してください。';
  else if (!/^\d{12,19}$/.test(number)) fields.number = 'カード番号が正しくありません。';

  const expiry = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(exp);
  const expMonth = Number(expiry?.[1]);
  const yearText = expiry?.[2] ?? '';
  const expYear = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (!exp) fields.exp = '有効期限を入力してください。';
  else if (!expiry) fields.exp = '有効期限は「月/年」の形で入力してください（例：04/30）。';
  else if (expMonth < 1 || expMonth > 12) fields.exp = '有効期限の月が正しくありません。';
  else if (
    expYear < now.getUTCFullYear() ||
    (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)
  ) {
    fields.exp = '有効期限が切れています。';
  }

  if (!cvc) fields.cvc = 'セキュリティコードを入力してください。';
  else if (!/^\d{3,4}$/.test(cvc)) {
    fields.cvc = 'セキュリティコードは3桁または4桁の数字で入力してください。';
  }

  if (!name) fields.name = 'カード名義を入力してください。';

  if (Object.keys(fields).length > 0) return { ok: false, errors: { fields }, values };
  return { ok: true, card: { number, expMonth, expYear, cvc, name }, values };
}

/** The API's card error (payment_methods create or attach) as the form shows it. */
export function cardErrorOf(error: StripeApiError): FormErrors {
  switch (error.code) {
    case 'invalid_number':
    case 'incorrect_number':
      return { fields: { number: 'カード番号が正しくありません。' } };
    case 'invalid_expiry_month':
    case 'invalid_expiry_year':
      return { fields: { exp: '有効期限が正しくありません。' } };
    case 'invalid_cvc':
    case 'incorrect_cvc':
      return { fields: { cvc: 'セキュリティコードが正しくありません。' } };
    default:
      // Stripe's decline_code says why the bank declined; insufficient funds is worth saying.
      return {
        fields: {},
        form:
          error.extra.decline_code === 'insufficient_funds'
            ? INSUFFICIENT_FUNDS_MESSAGE
            : DECLINED_MESSAGE,
      };
  }
}

/**
 * A card form's post: the form's own checks first (400, with what to correct), then `save`
 * with the card. A card error of the API on the way (a number it refuses, a card declined at
 * attach) is said beside its field (402); any other error is thrown.
 */
export async function takeCardForm<T>(
  form: URLSearchParams,
  save: (card: CardInput) => Promise<T>,
): Promise<
  | { ok: true; result: T; values: CardValues }
  | { ok: false; status: 400 | 402; state: Required<CardFormState> }
> {
  const input = readCardForm(form);
  if (!input.ok) return { ok: false, status: 400, state: input };
  try {
    return { ok: true, result: await save(input.card), values: input.values };
  } catch (error) {
    if (!(error instanceof StripeApiError) || error.type !== 'card_error') throw error;
    return { ok: false, status: 402, state: { errors: cardErrorOf(error), values: input.values } };
  }
}

/**
 * The list of what to correct, first in the page: announced when the page loads (role=alert),
 * each entry a link to its field.
 */
export function errorSummary(errors: FormErrors | undefined): Html | null {
  if (!errors) return null;
  const entries = Object.entries(errors.fields) as [CardField, string][];
  if (entries.length === 0 && !errors.form) return null;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">
      ${errors.form ? 'お支払いを完了できませんでした' : '入力内容を確認してください'}
    </h2>
    ${errors.form && html`<p>${errors.form}</p>`}
    ${
      entries.length > 0 &&
      html`<ul>
        ${entries.map(([field, message]) => html`<li><a href="#${FIELDS[field].id}">${message}</a></li>`)}
      </ul>`
    }
  </div>`;
}

function fieldHtml(field: CardField, value: string, error: string | undefined): Html {
  const spec = FIELDS[field];
  const { id } = spec;
  const describedBy = error ? `${id}-hint ${id}-error` : `${id}-hint`;
  return html`<div class="field">
    <label for="${id}">${spec.label}</label>
    <span class="hint" id="${id}-hint">${spec.hint}</span>
    ${error && html`<p class="field-error" id="${id}-error">${error}</p>`}
    <input
      type="text"
      id="${id}"
      name="${field}"
      autocomplete="${spec.autocomplete}"
      ${spec.numeric ? html` inputmode="numeric"` : null}
      maxlength="${spec.maxLength}"
      required
      aria-describedby="${describedBy}"
      ${error ? html` aria-invalid="true"` : null}
      value="${value}"
      spellcheck="false"
    />
  </div>`;
}

/** The test cards, beside every card form: the sandbox takes no real card. */
export function testCards(): Html {
  return html`<section class="panel test-cards" aria-labelledby="test-cards-title">
    <h2 id="test-cards-title">テスト用のカード番号</h2>
    <p>
      実在のカードは使えません。次の番号で動作を確かめられます（有効期限は未来の日付、セキュリティコードは任意の3桁）。
    </p>
    <ul>
      <li><span class="card-number">4242 4242 4242 4242</span>：成功</li>
      <li><span class="card-number">4000 0000 0000 0002</span>：拒否</li>
      <li><span class="card-number">4000 0000 0000 9995</span>：残高不足で拒否</li>
      <li>
        <span class="card-number">4000 0000 0000 0341</span
        >：登録はできるが、請求はすべて失敗（無料体験なら体験終了時の請求で失敗）
      </li>
      <li>
        <span class="card-number">4000 0027 6000 3184</span>：3Dセキュア認証が毎回必要（更新時も）
      </li>
      <li>
        <span class="card-number">4000 0025 0000 3155</span>、<span class="card-number"
          >4000 0000 0000 3220</span
        >：申し込み時に3Dセキュア認証が必要
      </li>
    </ul>
  </section>`;
}

/** The card form; it posts to the page it is on (`action`). */
export function cardForm(options: {
  action: string;
  submitLabel: string;
  errors?: FormErrors;
  values?: CardValues;
}): Html {
  const { errors, values } = options;
  const field = (name: CardField, value = '') => fieldHtml(name, value, errors?.fields[name]);
  return html`<form
    class="panel"
    method="post"
    action="${options.action}"
    novalidate
    aria-labelledby="card-form-title"
  >
    <h2 id="card-form-title">カード情報</h2>
    ${field('number')}
    <div class="fields-row">${field('exp', values?.exp)} ${field('cvc')}</div>
    ${field('name', values?.name)}
    <button type="submit" class="button wide">${options.submitLabel}</button>
  </form>`;
}
