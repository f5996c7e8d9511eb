import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { taxOf } from '../cycle/tax';
import { invalidRequest, missingParam } from '../errors';
import {
  type SandboxObject,
  findObject,
  insertObject,
  newObjectId,
  requireObject,
} from '../object-store';
import type { Params } from '../params';

/**
 * A Checkout Session's one line item: `line_items[0][price]` (an existing price; in
 * `subscription` mode of any `quantity`, the subscription's seats) or, in
 * `payment` mode, `line_items[0][price_data]` (an inline one-time price, made with its product
 * when the session is made, as Stripe makes them), its amounts with consumption tax, and the
 * `item` object `listLineItems` answers.
 */

/** Stripe's `item` (a checkout line item): an object without a `created` of its own. */
export type LineItem = { id: string; object: 'item' } & Record<string, unknown>;

const TAX_BEHAVIORS = ['inclusive', 'exclusive', 'unspecified'] as const;
const PRICE_PARAM = 'line_items[0][price]';

/**
 * A price's amount (times `quantity`) with consumption tax, and the tax in it (JPY prices are
 * tax-inclusive), less `discount`: the tax is on what is charged.
 */
export function grossAmountOf(
  price: SandboxObject,
  discount = 0,
  quantity = 1,
): { total: number; tax: number } {
  const amount = (price.unit_amount as number) * quantity - discount;
  if (price.tax_behavior === 'exclusive') {
    const tax = taxOf(amount, 'exclusive');
    return { total: amount + tax, tax };
  }
  return { total: amount, tax: taxOf(amount, 'inclusive') };
}

export function lineItemOf(
  price: SandboxObject,
  description: string,
  discount: number,
  quantity = 1,
): LineItem {
  const { total, tax } = grossAmountOf(price, discount, quantity);
  return {
    id: newObjectId('li'),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: discount,
    amount_subtotal: (price.unit_amount as number) * quantity,
    amount_tax: tax,
    amount_total: total,
    currency: price.currency,
    description,
    metadata: {},
    price,
    quantity,
  };
}

/** `price_data` as given: a one-time price of a new product (`product_data`) or an existing one. */
type PriceData = {
  currency: string;
  unitAmount: number;
  taxBehavior: (typeof TAX_BEHAVIORS)[number];
  product: string | undefined;
  productName: string | undefined;
  productDescription: string | undefined;
  recurring: boolean;
};

export type LineItemParams = {
  price: string | undefined;
  priceData: PriceData | undefined;
  quantity: number | undefined;
  more: boolean;
  present: boolean;
  /** The nested hashes read, for `params.finish`. */
  nested: (Params | undefined)[];
};

export function readLineItem(params: Params): LineItemParams {
  const lineItems = params.object('line_items');
  const first = lineItems?.object('0');
  const price = first?.string('price', 200);
  const data = first?.object('price_data');
  const productData = data?.object('product_data');
  const currency = data?.string('currency', 3)?.toLowerCase();
  const unitAmount = data?.integer('unit_amount', 0, 99_999_999);
  const priceData: PriceData | undefined = data && {
    currency: currency ?? '',
    unitAmount: unitAmount ?? -1,
    taxBehavior: data.oneOf('tax_behavior', TAX_BEHAVIORS) ?? 'unspecified',
    product: data.string('product', 200),
    productName: productData?.string('name', 250),
    productDescription: productData?.string('description', 40_000),
    recurring: data.object('recurring') !== undefined,
  };
  const quantity = first?.integer('quantity', 0, 999_999);
  const more = lineItems?.has('1') ?? false;
  return {
    price,
    priceData,
    quantity,
    more,
    present: lineItems !== undefined,
    nested: [lineItems, first, data, productData],
  };
}

/** Stripe's refusal of a recurring price in `payment` mode. */
function recurringInPaymentMode(param: string) {
  return invalidRequest(
    'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
    param,
  );
}

async function requireActivePrice(db: Db, id: string): Promise<SandboxObject> {
  const price = await requireObject(db, 'price', id, { param: PRICE_PARAM });
  if (price.active !== true) {
    throw invalidRequest(
      'The price specified is inactive. This field only accepts active prices.',
      PRICE_PARAM,
    );
  }
  const product = await findObject(db, 'product', String(price.product));
  if (product?.active !== true) {
    throw invalidRequest('The product of the price specified is not active.', PRICE_PARAM);
  }
  return price;
}

/** `line_items[0][price]` in `subscription` mode: an active recurring price. */
export async function requireActiveRecurringPrice(db: Db, id: string): Promise<SandboxObject> {
  const price = await requireActivePrice(db, id);
  if (price.type !== 'recurring') {
    throw invalidRequest(
      'You must specify at least one recurring price in `subscription` mode when using prices.',
      'line_items',
    );
  }
  return price;
}

/** `line_items[0][price]` in `payment` mode: an active one-time price. */
export async function requireActiveOneTimePrice(db: Db, id: string): Promise<SandboxObject> {
  const price = await requireActivePrice(db, id);
  if (price.type === 'recurring') throw recurringInPaymentMode(PRICE_PARAM);
  return price;
}

/**
 * What `price_data` makes: an inline one-time price (inactive, as Stripe keeps the prices it
 * makes for a session out of the catalogue) and, from `product_data`, its product. Checked
 * here; stored by `storeInlinePrice` with the session.
 */
export async function inlinePriceOf(
  db: Db,
  data: PriceData,
  created: number,
): Promise<{ price: SandboxObject; product: SandboxObject | null }> {
  const param = 'line_items[0][price_data]';
  if (data.recurring) throw recurringInPaymentMode(`${param}[recurring]`);
  if (!data.currency) throw missingParam(`${param}[currency]`);
  if (!/^[a-z]{3}$/.test(data.currency))
    throw invalidRequest('Invalid currency', `${param}[currency]`);
  if (data.unitAmount < 0) throw missingParam(`${param}[unit_amount]`);
  if ((data.product === undefined) === (data.productName === undefined)) {
    throw invalidRequest(
      'You must specify exactly one of product or product_data in price_data.',
      param,
    );
  }
  if (data.productName === '') throw missingParam(`${param}[product_data][name]`);
  const product: SandboxObject | null = data.productName
    ? {
        id: newObjectId('prod'),
        object: 'product',
        active: false,
        created,
        default_price: null,
        description: data.productDescription ?? null,
        images: [],
        livemode: false,
        marketing_features: [],
        metadata: {},
        name: data.productName,
        package_dimensions: null,
        shippable: null,
        statement_descriptor: null,
        tax_code: null,
        tax_details: null,
        type: 'service',
        unit_label: null,
        updated: created,
        url: null,
      }
    : null;
  if (data.product)
    await requireObject(db, 'product', data.product, { param: `${param}[product]` });
  const price: SandboxObject = {
    id: newObjectId('price'),
    object: 'price',
    active: false,
    billing_scheme: 'per_unit',
    created,
    currency: data.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: product?.id ?? data.product,
    recurring: null,
    tax_behavior: data.taxBehavior,
    tiers_mode: null,
    transform_quantity: null,
    type: 'one_time',
    unit_amount: data.unitAmount,
    unit_amount_decimal: String(data.unitAmount),
  };
  return { price, product };
}

export async function storeInlinePrice(
  db: Db,
  inline: { price: SandboxObject; product: SandboxObject | null },
): Promise<void> {
  if (inline.product) await insertObject(db, 'product', inline.product);
  await insertObject(db, 'price', inline.price);
}

/** The price the session sells, and the inline one `price_data` makes (`payment` mode only). */
export async function sessionPriceOf(
  db: Db,
  mode: 'payment' | 'subscription',
  item: LineItemParams,
  created: number,
) {
  if (item.priceData) {
    if (mode !== 'payment') {
      throw invalidRequest(
        'The billing sandbox takes price_data in `payment` mode only.',
        'line_items[0][price_data]',
      );
    }
    const data = item.priceData;
    const inline = await inlinePriceOf(db, data, created);
    return { price: inline.price, inline, productName: data.productName };
  }
  const id = item.price ?? '';
  const price =
    mode === 'payment'
      ? await requireActiveOneTimePrice(db, id)
      : await requireActiveRecurringPrice(db, id);
  return { price, inline: null, productName: undefined };
}
