import 'server-only';
import { randomBytes } from 'node:crypto';
import {
  type FieldFilter,
  type SandboxObject,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
} from '../object-store';
import type { Params } from '../params';
import { requireAttachedPaymentMethod } from './payment-methods';
import { type Route, type RouteContext, changeLocked, resourceRoutes } from './route';
import { requireTestClock } from './test-clocks';

/**
 * /v1/customers. As on Stripe, a customer made on a test clock lives in that clock's time and
 * is listed only when the list asks for that clock (`test_clock=clock_…`).
 */

const TYPE = 'customer';

function readEditable(params: Params, current: SandboxObject | null) {
  return {
    email: params.nullableString('email', 512),
    name: params.nullableString('name', 256),
    description: params.nullableString('description', 350),
    phone: params.nullableString('phone', 20),
    preferred_locales: params.stringArray('preferred_locales', 10),
    metadata: params.metadata((current?.metadata as Record<string, string> | undefined) ?? {}),
  };
}

async function create(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const fields = readEditable(params, null);
  const testClock = params.string('test_clock', 200);
  params.finish();
  if (testClock) await requireTestClock(context, testClock, 'test_clock');
  const customer: SandboxObject = {
    id: newObjectId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: fields.description ?? null,
    discount: null,
    email: fields.email ?? null,
    invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: fields.metadata ?? {},
    name: fields.name ?? null,
    next_invoice_sequence: 1,
    phone: fields.phone ?? null,
    preferred_locales: fields.preferred_locales ?? [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: testClock ?? null,
  };
  await insertObject(context.db, TYPE, customer);
  return customer;
}

/**
 * Under the customer's row lock: an invoice paid at the same moment (a clock's advance) moves
 * the balance and invoice numbering of the same object, and must not be overwritten.
 */
async function update(context: RouteContext): Promise<SandboxObject> {
  return changeLocked(context, TYPE, async (db, current) => {
    const fields = readEditable(context.params, current);
    const invoiceSettings = context.params.object('invoice_settings');
    const defaultPaymentMethod = invoiceSettings?.nullableString('default_payment_method', 200);
    context.params.finish(invoiceSettings);
    const next: SandboxObject = { ...current };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) next[key] = value;
    if (defaultPaymentMethod !== undefined) {
      if (defaultPaymentMethod !== null) {
        await requireAttachedPaymentMethod(
          db,
          defaultPaymentMethod,
          current.id,
          'invoice_settings[default_payment_method]',
        );
      }
      next.invoice_settings = {
        ...(current.invoice_settings as Record<string, unknown>),
        default_payment_method: defaultPaymentMethod,
      };
    }
    await saveObject(db, next);
    return next;
  });
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters: FieldFilter[] = [];
  const email = params.string('email', 512);
  if (email !== undefined) filters.push({ field: 'email', in: [email] });
  const testClock = params.string('test_clock', 200);
  filters.push(
    testClock ? { field: 'test_clock', in: [testClock] } : { field: 'test_clock', isNull: true },
  );
  return filters;
}

export const customerRoutes: Route[] = resourceRoutes(['customers'], TYPE, {
  create,
  filters: listFilters,
  update,
});
