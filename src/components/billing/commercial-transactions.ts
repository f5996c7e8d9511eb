import type { Operator } from '@/server/features/operator/operator';
import { escapeHtml } from '@/lib/text/escape-html';
import { htmlToText } from '@/lib/text/html-to-text';
import { type PlanView, planPrice } from './billing-format';

/**
 * The 特定商取引法 page is the operator's text from the CMS, but its prices (販売価格) are the
 * plan catalogue's, so they never disagree with /service-plans or the confirmation screen: the
 * row's cell is replaced with the catalogue's plans on every render. Where the page says how to
 * cancel, it points at the plans page's 「プランの管理」 (the customer portal). The operator's
 * details (販売業者, 運営統括責任者, 所在地, 電話番号, メールアドレス) come from the operator
 * settings (src/server/features/operator) the same way, so the CMS text cannot leave them out.
 */

const ROW = /<tr\b[^>]*>([\s\S]*?)<\/tr\s*>/gi;
const HEADER_CELL = /<th\b[^>]*>([\s\S]*?)<\/th\s*>/i;
const DATA_CELL = /(<td\b[^>]*>)([\s\S]*?)(<\/td\s*>)/i;

export const PRICE_ROW_LABEL = '販売価格';
export const CANCEL_VIA_PORTAL =
  '<a href="/service-plans">料金プランのページ</a>の『プランの管理』から';

/** The 販売価格 cell: each plan with its tax-inclusive price and period, and the trial. */
export function priceCellHtml(plans: readonly PlanView[], trialDays: number): string {
  const lines = plans
    .filter((plan) => plan.active)
    .map((plan) => `${escapeHtml(plan.name)}：${escapeHtml(planPrice(plan))}`);
  if (trialDays > 0) {
    lines.push(
      `初めて有料プランをお申し込みの方は、最初の${trialDays}日間が無料です（おひとり様1回限り）。`,
    );
  }
  lines.push('各プランの内容は<a href="/service-plans">料金プランのページ</a>に表示しています。');
  return lines.join('<br>');
}

/**
 * "アカウントページの「プランの管理」から" and the like (the plans page named without its link
 * too) → the plans page's 『プランの管理』, linked; said once, never twice.
 */
function cancelWording(cell: string): string {
  const replaced = cell.replace(
    /(?:アカウント(?:ページ|設定)|マイページ|料金プランの?ページ)(?:の|から)?[「『]プランの管理[」』](?:から)?/g,
    CANCEL_VIA_PORTAL,
  );
  if (replaced.includes('『プランの管理』')) return replaced;
  return `解約のお手続きは、${CANCEL_VIA_PORTAL}いつでも行えます。${replaced}`;
}

export type CommercialBody = { html: string; pricesPlaced: boolean };

/**
 * The page's body with the catalogue's prices in its 販売価格 row and the cancellation rows
 * pointing at the portal. `pricesPlaced` is false when the body has no 販売価格 row (the page
 * then shows the prices on its own).
 */
export function withCatalogue(
  html: string,
  plans: readonly PlanView[],
  trialDays: number,
): CommercialBody {
  let pricesPlaced = false;
  const out = html.replace(ROW, (row: string, inner: string) => {
    const label = htmlToText(HEADER_CELL.exec(inner)?.[1] ?? '', { whitespace: 'collapse' });
    if (!label) return row;
    if (label === PRICE_ROW_LABEL || (!pricesPlaced && label.startsWith(PRICE_ROW_LABEL))) {
      pricesPlaced = true;
      return row.replace(
        DATA_CELL,
        (_cell, open: string, _old: string, close: string) =>
          `${open}${priceCellHtml(plans, trialDays)}${close}`,
      );
    }
    if (label.includes('解約')) {
      return row.replace(
        DATA_CELL,
        (_cell, open: string, body: string, close: string) =>
          `${open}${cancelWording(body)}${close}`,
      );
    }
    return row;
  });
  return { html: out, pricesPlaced };
}

type OperatorField = 'name' | 'representative' | 'address' | 'phone' | 'email';

/** The rows the operator settings fill, each with the labels an operator's text may give it. */
const OPERATOR_ROWS: readonly { field: OperatorField; label: string; pattern: RegExp }[] = [
  { field: 'name', label: '販売業者', pattern: /^(販売事?業者|事業者(名|の名称)?)$/ },
  { field: 'representative', label: '運営統括責任者', pattern: /(責任者|代表者)/ },
  { field: 'address', label: '所在地', pattern: /^(所在地|住所)/ },
  { field: 'phone', label: '電話番号', pattern: /^電話/ },
  { field: 'email', label: 'メールアドレス', pattern: /^(メールアドレス|電子メール|E-?mail)/i },
];

const mailLink = (email: string) =>
  `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`;

/** What a cell says about one of the operator's details; address and phone may be on request. */
export function operatorCellHtml(field: OperatorField, operator: Operator): string {
  const value = operator[field];
  if (field === 'email') return mailLink(operator.email);
  if (value === null) {
    return `請求があった場合には、遅滞なく開示いたします。ご請求は ${mailLink(operator.email)} までお送りください。`;
  }
  return escapeHtml(value);
}

export type OperatorBody = {
  html: string;
  /** The operator's rows the text does not have, for the page to show on its own. */
  missing: { label: string; html: string }[];
};

/** The page's body with the operator's details in their rows, and the rows it lacks. */
export function withOperator(html: string, operator: Operator): OperatorBody {
  const placed = new Set<OperatorField>();
  const out = html.replace(ROW, (row: string, inner: string) => {
    const label = htmlToText(HEADER_CELL.exec(inner)?.[1] ?? '', { whitespace: 'collapse' });
    const match = label ? OPERATOR_ROWS.find((r) => r.pattern.test(label)) : undefined;
    if (!match) return row;
    placed.add(match.field);
    return row.replace(
      DATA_CELL,
      (_cell, open: string, _old: string, close: string) =>
        `${open}${operatorCellHtml(match.field, operator)}${close}`,
    );
  });
  const missing = OPERATOR_ROWS.filter((row) => !placed.has(row.field)).map((row) => ({
    label: row.label,
    html: operatorCellHtml(row.field, operator),
  }));
  return { html: out, missing };
}
