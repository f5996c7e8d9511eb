import 'server-only';
import type { Db } from '@/server/db/client';
import { invalidRequest } from './errors';
import { type SandboxObject, findObject } from './object-store';

/**
 * `expand[]`: fields that hold another object's id answer the object itself instead. Only the
 * fields listed here expand (as on Stripe, any other is refused); paths nest up to 4 levels.
 */
const EXPANDABLE: Record<string, Record<string, string>> = {
  price: { product: 'product' },
  customer: { test_clock: 'test_helpers.test_clock' },
};

const MAX_EXPAND_DEPTH = 4;

function cannotExpand(path: string) {
  return invalidRequest(`This property cannot be expanded (${path}).`, 'expand');
}

async function expandPath(
  db: Db,
  object: SandboxObject,
  segments: string[],
  fullPath: string,
): Promise<SandboxObject> {
  const [field, ...rest] = segments;
  const targetType = field ? EXPANDABLE[object.object]?.[field] : undefined;
  if (!field || !targetType) throw cannotExpand(fullPath);
  let value = object[field];
  if (typeof value === 'string') value = (await findObject(db, targetType, value)) ?? value;
  if (rest.length > 0 && typeof value === 'object' && value !== null) {
    value = await expandPath(db, value as SandboxObject, rest, fullPath);
  }
  return { ...object, [field]: value };
}

export async function expandObject(
  db: Db,
  object: SandboxObject,
  paths: string[],
): Promise<SandboxObject> {
  let result = object;
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > MAX_EXPAND_DEPTH) throw cannotExpand(path);
    result = await expandPath(db, result, segments, path);
  }
  return result;
}

/** A list expands its items through `data.<field>`. */
export async function expandListItems(
  db: Db,
  items: SandboxObject[],
  paths: string[],
): Promise<SandboxObject[]> {
  const itemPaths = paths.map((path) => {
    if (!path.startsWith('data.')) throw cannotExpand(path);
    return path.slice('data.'.length);
  });
  if (itemPaths.length === 0) return items;
  return Promise.all(items.map((item) => expandObject(db, item, itemPaths)));
}
