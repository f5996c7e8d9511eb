import 'server-only';
import type { Env } from '@/env';

/**
 * The operator of the site, as the 特定商取引法 page names them (法第11条, 施行規則第8条): the
 * seller's legal name, the person responsible, address, phone and e-mail, from the OPERATOR_*
 * settings. The seller's name is always shown: a site name alone does not do. The address and
 * phone may instead be "disclosed without delay on request" when the page says so
 * (OPERATOR_DISCLOSE_ON_REQUEST=true); card acquirers usually want them on the page anyway.
 *
 * On the embedded database (a demo or a developer's machine) unset values are demo values and
 * the page says so. With DATABASE_URL (production) the start is refused until they are set,
 * as src/server/features/billing/start-check.ts refuses a server database without Stripe.
 */
export type Operator = {
  name: string;
  representative: string;
  /** Null: disclosed on request. */
  address: string | null;
  /** Null: disclosed on request. */
  phone: string | null;
  email: string;
  /** Some value is a demo value: the page says the table is not a real operator's. */
  demo: boolean;
};

type OperatorSettings = Pick<
  Env,
  | 'DATABASE_URL'
  | 'OPERATOR_NAME'
  | 'OPERATOR_REPRESENTATIVE'
  | 'OPERATOR_ADDRESS'
  | 'OPERATOR_PHONE'
  | 'OPERATOR_EMAIL'
  | 'OPERATOR_DISCLOSE_ON_REQUEST'
>;

/** Plainly fictional (0-0-0, 0000), so nobody takes the demo for a real business. */
export const DEMO_OPERATOR = {
  name: 'サンプル出版株式会社',
  representative: '見本 太郎',
  address: '〒106-0032 東京都港区六本木0-0-0',
  phone: '03-0000-0000',
  email: 'support@example.com',
} as const;

/** The settings a production start needs, given whether address and phone are on request. */
function missingSettings(config: OperatorSettings): string[] {
  const required: [string, string | undefined][] = [
    ['OPERATOR_NAME', config.OPERATOR_NAME],
    ['OPERATOR_REPRESENTATIVE', config.OPERATOR_REPRESENTATIVE],
    ['OPERATOR_EMAIL', config.OPERATOR_EMAIL],
  ];
  if (!config.OPERATOR_DISCLOSE_ON_REQUEST) {
    required.push(
      ['OPERATOR_ADDRESS', config.OPERATOR_ADDRESS],
      ['OPERATOR_PHONE', config.OPERATOR_PHONE],
    );
  }
  return required.filter(([, value]) => !value).map(([name]) => name);
}

/**
 * Why a start must be refused, or null: a server database (production) without the operator's
 * details, which the 特定商取引法 page must show before the site takes a single order.
 */
export function operatorStartRefusal(config: OperatorSettings): string | null {
  if (!config.DATABASE_URL) return null;
  const missing = missingSettings(config);
  if (missing.length === 0) return null;
  const names = missing.join(', ');
  return (
    `DATABASE_URL が設定されていますが、特定商取引法に基づく表記に載せる運営者の情報 (${names}) がありません。` +
    '販売業者の名称などを表示しないまま本番で動かさないため、起動を止めました。' +
    '所在地と電話番号を表示せず、請求があったときに遅滞なく開示する場合は OPERATOR_DISCLOSE_ON_REQUEST=true を設定してください。\n' +
    `(DATABASE_URL is set without the operator details the specified-commercial-transactions page must show: set ${names}; ` +
    'OPERATOR_DISCLOSE_ON_REQUEST=true discloses the address and phone number on request instead of showing them.)'
  );
}

/**
 * The operator's name where a page names who runs the site (beside comments), without the
 * 特定商取引法 page's strictness: null on a server database without it, which only a test
 * sees (a start refuses it), and the page names the site instead.
 */
export function operatorName(config: OperatorSettings): string | null {
  if (config.OPERATOR_NAME) return config.OPERATOR_NAME;
  return config.DATABASE_URL ? null : DEMO_OPERATOR.name;
}

/**
 * The operator for the 特定商取引法 page. Throws on a server database without the settings:
 * the start refuses that, so it means the check was skipped, and the page must not guess.
 */
export function operatorOf(config: OperatorSettings): Operator {
  const refusal = operatorStartRefusal(config);
  if (refusal) throw new Error(refusal);
  // Past the check, only the embedded database can lack a value: a demo value stands in.
  let demo = false;
  const orDemo = (value: string | undefined, demoValue: string): string => {
    if (value) return value;
    demo = true;
    return demoValue;
  };
  const onRequest = config.OPERATOR_DISCLOSE_ON_REQUEST;
  const orOnRequest = (value: string | undefined, demoValue: string): string | null =>
    value ?? (onRequest ? null : orDemo(value, demoValue));
  const operator = {
    name: orDemo(config.OPERATOR_NAME, DEMO_OPERATOR.name),
    representative: orDemo(config.OPERATOR_REPRESENTATIVE, DEMO_OPERATOR.representative),
    address: orOnRequest(config.OPERATOR_ADDRESS, DEMO_OPERATOR.address),
    phone: orOnRequest(config.OPERATOR_PHONE, DEMO_OPERATOR.phone),
    email: orDemo(config.OPERATOR_EMAIL, DEMO_OPERATOR.email),
  };
  return { ...operator, demo };
}
