import 'server-only';
import { invalidRequest } from '../errors';
import {
  type FieldFilter,
  type SandboxObject,
  insertObjectIfNew,
  newObjectId,
  nowSeconds,
  saveObject,
  requireObject,
} from '../object-store';
import type { Params } from '../params';
import { type Route, type RouteContext, filtersWithActive, resourceRoutes } from './route';

/** /v1/products: create (with an optional own id, as Stripe allows), retrieve, update, list. */

const TYPE = 'product';

export async function requireProduct(
  context: RouteContext,
  id: string,
  param = 'id',
): Promise<SandboxObject> {
  return requireObject(context.db, TYPE, id, { param });
}

function readEditable(params: Params, current: SandboxObject | null) {
  return {
    active: params.boolean('active'),
    description: params.nullableString('description', 40_000),
    metadata: params.metadata((current?.metadata as Record<string, string> | undefined) ?? {}),
    url: params.nullableString('url', 5000),
    images: params.stringArray('images', 8),
  };
}

async function create({ db, params }: RouteContext): Promise<SandboxObject> {
  const id = params.objectId('id') ?? newObjectId('prod');
  const name = params.requiredString('name', 5000);
  const fields = readEditable(params, null);
  params.finish();
  const now = nowSeconds();
  const product: SandboxObject = {
    id,
    object: 'product',
    active: fields.active ?? true,
    created: now,
    default_price: null,
    description: fields.description ?? null,
    images: fields.images ?? [],
    livemode: false,
    marketing_features: [],
    metadata: fields.metadata ?? {},
    name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: now,
    url: fields.url ?? null,
  };
  if (!(await insertObjectIfNew(db, TYPE, product))) {
    throw invalidRequest(`Product already exists.`, 'id', 'resource_already_exists');
  }
  return product;
}

async function update(context: RouteContext): Promise<SandboxObject> {
  const { db, params } = context;
  const current = await requireProduct(context, context.id ?? '');
  const name = params.string('name', 5000);
  const fields = readEditable(params, current);
  params.finish();
  if (name === '') throw invalidRequest('You cannot unset the name of a product.', 'name');
  const next: SandboxObject = { ...current, updated: nowSeconds() };
  if (name !== undefined) next.name = name;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) next[key] = value;
  await saveObject(db, next);
  return next;
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters = filtersWithActive(params);
  const ids = params.stringArray('ids');
  if (ids) filters.push({ field: 'id', in: ids });
  return filters;
}

export const productRoutes: Route[] = resourceRoutes(['products'], TYPE, {
  create,
  filters: listFilters,
  update,
});
