import 'server-only';
import { invalidParam, invalidRequest, missingParam } from '../errors';
import type { Metadata, Params } from '../params';
import { formatNumber } from '@/lib/format';

/**
 * The payment methods of a Checkout Session and what `payment` mode takes beyond a
 * subscription's. In the pinned version (2026-09-30.endive on) `payment_method_types` is no
 * longer a parameter: Stripe offers the account's dynamic payment methods, narrowed by
 * `excluded_payment_method_types` or replaced by `allowed_payment_method_types`, and silently
 * leaves out those that cannot take the session (its mode, currency, amount); what is left is
 * the session's `payment_method_types`. The sandbox's "Dashboard" enables card, konbini and
 * PayPay. Konbini and PayPay take one-time payments in yen only (a subscription stays
 * card-only, as on Stripe), konbini ¥120–¥300,000; any payment is ¥50 at least.
 */

export const ONE_TIME_METHODS = ['card', 'konbini', 'paypay'] as const;
export type OneTimeMethod = (typeof ONE_TIME_METHODS)[number];

/** Stripe's smallest charge in yen, and the range of a konbini payment. */
const MINIMUM_JPY = 50;
const KONBINI_MINIMUM = 120;
const KONBINI_MAXIMUM = 300_000;
/** Stripe's default for `payment_method_options[konbini][expires_after_days]`. */
export const KONBINI_DEFAULT_DAYS = 3;

const CUSTOMER_CREATIONS = ['always', 'if_required'] as const;
export type CustomerCreation = (typeof CUSTOMER_CREATIONS)[number];

export type PaymentIntentData = { metadata: Metadata; description: string | null };

/**
 * The session's `invoice_creation` as Stripe answers it: whether a paid payment leaves a
 * post-payment invoice (cycle/post-payment-invoices.ts), and what that invoice says.
 */
export type InvoiceCreation = {
  enabled: boolean;
  invoice_data: {
    account_tax_ids: null;
    custom_fields: { name: string; value: string }[] | null;
    description: string | null;
    footer: string | null;
    issuer: { type: 'self' } | null;
    metadata: Metadata;
    rendering_options: { amount_tax_display: string | null; template: null } | null;
  };
};

const NO_INVOICE: InvoiceCreation = {
  enabled: false,
  invoice_data: {
    account_tax_ids: null,
    custom_fields: null,
    description: null,
    footer: null,
    issuer: null,
    metadata: {},
    rendering_options: null,
  },
};

/** Stripe's limit of custom fields on an invoice. */
const MAX_CUSTOM_FIELDS = 4;
const INVOICE_DATA = 'invoice_creation[invoice_data]';

function readInvoiceCreation(params: Params): {
  invoiceCreation: InvoiceCreation | undefined;
  nested: (Params | null | undefined)[];
} {
  const creation = params.object('invoice_creation');
  if (!creation) return { invoiceCreation: undefined, nested: [] };
  const enabled = creation.boolean('enabled');
  const data = creation.object('invoice_data');
  if (data?.stringArray('account_tax_ids', 25)?.length) {
    throw invalidParam(
      `${INVOICE_DATA}[account_tax_ids]`,
      'The billing sandbox has no account tax IDs: its invoices name none.',
    );
  }
  const fields = data?.objectArray('custom_fields', MAX_CUSTOM_FIELDS);
  const issuer = data?.object('issuer');
  if (issuer && issuer.oneOf('type', ['self', 'account'] as const) !== 'self') {
    throw invalidParam(
      `${INVOICE_DATA}[issuer][type]`,
      'The billing sandbox issues invoices as the account itself (`self`) only.',
    );
  }
  const rendering = data?.emptyableObject('rendering_options');
  if (rendering?.string('template', 200) !== undefined) {
    throw invalidParam(
      `${INVOICE_DATA}[rendering_options][template]`,
      'The billing sandbox has no invoice rendering templates.',
    );
  }
  const amountTaxDisplay = rendering?.oneOf('amount_tax_display', [
    'exclude_tax',
    'include_inclusive_tax',
    '',
  ] as const);
  const invoiceCreation: InvoiceCreation = {
    enabled: enabled ?? false,
    invoice_data: {
      ...NO_INVOICE.invoice_data,
      custom_fields:
        fields && fields.length > 0
          ? fields.map((field) => ({
              name: field.requiredString('name', 40),
              value: field.requiredString('value', 140),
            }))
          : null,
      description: data?.string('description', 1500) ?? null,
      footer: data?.string('footer', 5000) ?? null,
      issuer: issuer ? { type: 'self' } : null,
      metadata: data?.metadata() ?? {},
      rendering_options: rendering
        ? { amount_tax_display: amountTaxDisplay || null, template: null }
        : null,
    },
  };
  if (enabled === undefined) throw missingParam('invoice_creation[enabled]');
  return { invoiceCreation, nested: [creation, data, issuer, rendering, ...(fields ?? [])] };
}

export type PaymentModeParams = {
  allowed: OneTimeMethod[] | undefined;
  excluded: string[] | undefined;
  konbiniDays: number | undefined;
  konbiniOptions: boolean;
  paymentIntentData: PaymentIntentData | undefined;
  customerCreation: CustomerCreation | undefined;
  invoiceCreation: InvoiceCreation | undefined;
  nested: (Params | null | undefined)[];
};

const METHOD_NAME = /^[a-z][a-z0-9_]{0,49}$/;

export function readPaymentModeParams(params: Params): PaymentModeParams {
  const allowed = params.stringArray('allowed_payment_method_types', 60)?.map((type, index) => {
    if (!(ONE_TIME_METHODS as readonly string[]).includes(type)) {
      throw invalidParam(
        `allowed_payment_method_types[${index}]`,
        `Invalid allowed_payment_method_types[${index}]: the billing sandbox takes ${ONE_TIME_METHODS.join(', ')}.`,
      );
    }
    return type as OneTimeMethod;
  });
  const excluded = params.stringArray('excluded_payment_method_types', 60);
  excluded?.forEach((type, index) => {
    if (!METHOD_NAME.test(type)) {
      throw invalidParam(
        `excluded_payment_method_types[${index}]`,
        `Invalid excluded_payment_method_types[${index}]: not a payment method type.`,
      );
    }
  });
  const options = params.object('payment_method_options');
  const konbini = options?.object('konbini');
  const konbiniDays = konbini?.integer('expires_after_days', 1, 60);
  const intentData = params.object('payment_intent_data');
  const paymentIntentData = intentData && {
    metadata: intentData.metadata() ?? {},
    description: intentData.string('description', 1000) ?? null,
  };
  const customerCreation = params.oneOf('customer_creation', CUSTOMER_CREATIONS);
  const invoices = readInvoiceCreation(params);
  return {
    allowed: allowed && [...new Set(allowed)],
    excluded,
    konbiniDays,
    konbiniOptions: konbini !== undefined,
    paymentIntentData,
    customerCreation,
    invoiceCreation: invoices.invoiceCreation,
    nested: [options, konbini, intentData, ...invoices.nested],
  };
}

/** What only `payment` mode takes, refused in `subscription` mode as Stripe refuses it. */
export function refusePaymentModeParams(read: PaymentModeParams): void {
  if (read.paymentIntentData) {
    throw invalidRequest(
      'You can only specify `payment_intent_data` in `payment` mode.',
      'payment_intent_data',
    );
  }
  if (read.customerCreation) {
    throw invalidRequest(
      '`customer_creation` can only be used in `payment` mode.',
      'customer_creation',
    );
  }
  if (read.konbiniOptions) {
    throw invalidRequest(
      'Konbini can only be used in `payment` mode.',
      'payment_method_options[konbini]',
    );
  }
  if (read.invoiceCreation?.enabled) {
    throw invalidRequest(
      'You can only enable invoice creation when `mode` is set to `payment`. Invoices are created automatically when `mode` is set to `subscription`, and are unsupported when set to `setup`. To learn more visit https://stripe.com/docs/payments/checkout/post-payment-invoices.',
      'invoice_creation',
    );
  }
}

/** Whether a method can take a session of this mode, currency and total. */
function canTake(method: OneTimeMethod, mode: string, currency: string, total: number): boolean {
  if (method === 'card') return true;
  if (mode !== 'payment' || currency !== 'jpy') return false;
  return method !== 'konbini' || (total >= KONBINI_MINIMUM && total <= KONBINI_MAXIMUM);
}

/**
 * The session's `payment_method_types`: the allowed (or not excluded) methods that can take
 * it. None left is refused, naming the parameter that left none.
 */
export function paymentMethodsFor(
  read: PaymentModeParams,
  session: { mode: string; currency: string; total: number },
): OneTimeMethod[] {
  if (read.allowed && read.excluded) {
    throw invalidRequest(
      'You may only specify one of these parameters: allowed_payment_method_types, excluded_payment_method_types.',
    );
  }
  const candidates = read.allowed ?? ONE_TIME_METHODS.filter((m) => !read.excluded?.includes(m));
  const methods = candidates.filter((method) =>
    canTake(method, session.mode, session.currency, session.total),
  );
  if (methods.length > 0) return methods;
  const konbiniRange = `konbini takes ¥${KONBINI_MINIMUM}–¥${formatNumber(KONBINI_MAXIMUM)} in payment mode`;
  throw invalidRequest(
    `None of the payment method types can accept this Checkout Session (${session.mode} mode, ${session.total} ${session.currency}; konbini and paypay take one-time payments in jpy only, ${konbiniRange}).`,
    read.allowed ? 'allowed_payment_method_types' : 'excluded_payment_method_types',
  );
}

/** Stripe's smallest amount a payment can be (in yen; other currencies are not checked). */
export function checkMinimumAmount(total: number, currency: string): void {
  if (currency === 'jpy' && total < MINIMUM_JPY) {
    throw invalidRequest(
      `The Checkout Session's total amount due must add up to at least ¥${MINIMUM_JPY} jpy.`,
      'line_items',
      'amount_too_small',
    );
  }
}

/** The session's `payment_method_options` in Stripe's shape, for the methods it accepts. */
function sessionPaymentMethodOptions(
  methods: readonly OneTimeMethod[],
  konbiniDays: number | null,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (methods.includes('card')) options.card = { request_three_d_secure: 'automatic' };
  if (methods.includes('konbini')) options.konbini = { expires_after_days: konbiniDays };
  return options;
}

/** What a session's mode decides in its object: payment methods, customer creation, invoices. */
export function modeFieldsOf(
  mode: 'payment' | 'subscription',
  methods: readonly OneTimeMethod[],
  read: PaymentModeParams,
  hasCustomer: boolean,
) {
  const types = {
    allowed_payment_method_types: read.allowed ?? null,
    ...(read.excluded ? { excluded_payment_method_types: read.excluded } : {}),
    payment_method_types: [...methods],
  };
  if (mode === 'subscription') {
    return {
      ...types,
      customer_creation: hasCustomer ? null : 'always',
      invoice_creation: null,
      payment_method_collection: 'always',
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    };
  }
  return {
    ...types,
    customer_creation: hasCustomer ? null : (read.customerCreation ?? 'if_required'),
    invoice_creation: read.invoiceCreation ?? NO_INVOICE,
    payment_method_collection: 'if_required',
    payment_method_options: sessionPaymentMethodOptions(methods, read.konbiniDays ?? null),
  };
}
