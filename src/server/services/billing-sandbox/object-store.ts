import 'server-only';
import { randomBytes } from 'node:crypto';
import { type SQL, and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { billingSandboxObjects } from '@/server/platform/db/schema';
import { resourceMissing } from './errors';

/**
 * The sandbox's objects, each kept as the JSON the API answers with. Repositories only: the
 * rules of each resource live in resources/*.ts.
 */

export type SandboxObject = { id: string; object: string; created: number } & Record<
  string,
  unknown
>;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id in Stripe's style: the type's prefix and 24 random alphanumerics. */
export function newObjectId(prefix: string): string {
  const bytes = randomBytes(24);
  let id = '';
  // 256 % 62 leaves a slight bias, harmless for ids that only need to be unique.
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return `${prefix}_${id}`;
}

/**
 * What an object id can be: letters, digits, `_` and `-`, Stripe's rule for the ids a caller
 * gives on creation, which every id the sandbox makes follows too. Every lookup by id passes
 * here before the database, so an id from a path, a form or a cursor that holds NUL or other
 * odd bytes is simply not found (the API's 404 `resource_missing`, a page's 404) rather than a
 * query PostgreSQL refuses.
 */
const OBJECT_ID = /^[A-Za-z0-9_-]{1,255}$/;

export function isObjectId(id: string): boolean {
  return OBJECT_ID.test(id);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export async function insertObject(db: Db, type: string, data: SandboxObject): Promise<void> {
  await db.insert(billingSandboxObjects).values({ id: data.id, type, data, created: data.created });
}

/** Inserts unless the id is taken; answers whether it was inserted. */
export async function insertObjectIfNew(
  db: Db,
  type: string,
  data: SandboxObject,
): Promise<boolean> {
  const rows = await db
    .insert(billingSandboxObjects)
    .values({ id: data.id, type, data, created: data.created })
    .onConflictDoNothing()
    .returning({ id: billingSandboxObjects.id });
  return rows.length > 0;
}

/** The row of the object with that id and type. */
function objectRow(type: string, id: string): SQL | undefined {
  return and(eq(billingSandboxObjects.id, id), eq(billingSandboxObjects.type, type));
}

/** The query of the object's stored JSON. */
function selectObjectData(db: Db, type: string, id: string) {
  return db
    .select({ data: billingSandboxObjects.data })
    .from(billingSandboxObjects)
    .where(objectRow(type, id))
    .limit(1);
}

export async function findObject(db: Db, type: string, id: string): Promise<SandboxObject | null> {
  if (!isObjectId(id)) return null;
  const rows = await selectObjectData(db, type, id);
  return (rows[0]?.data as SandboxObject | undefined) ?? null;
}

/**
 * Reads an object and locks its row until the transaction `db` belongs to ends, so that
 * concurrent changes to one object (an update racing a test clock's advance) run one after
 * the other instead of overwriting each other.
 */
export async function findObjectForUpdate(
  db: Db,
  type: string,
  id: string,
  /** Answer null at once when another transaction holds the row (a background run's skip). */
  options: { skipLocked?: boolean } = {},
): Promise<SandboxObject | null> {
  if (!isObjectId(id)) return null;
  const rows = await selectObjectData(db, type, id).for(
    'update',
    options.skipLocked ? { skipLocked: true } : {},
  );
  return (rows[0]?.data as SandboxObject | undefined) ?? null;
}

/**
 * An object of the type, or Stripe's 404 for it (`No such price: 'price_…'`, naming the
 * parameter that carried the id). `kind` is Stripe's name where it differs from the type;
 * with `lock`, the object is read as findObjectForUpdate reads it.
 */
export async function requireObject(
  db: Db,
  type: string,
  id: string,
  options: { param?: string; kind?: string; lock?: boolean } = {},
): Promise<SandboxObject> {
  const found = options.lock
    ? await findObjectForUpdate(db, type, id)
    : await findObject(db, type, id);
  if (!found) throw resourceMissing(options.kind ?? type, id, options.param);
  return found;
}

/** Every object of the type that passes the filters, oldest first (no paging). */
export async function findAllObjects(
  db: Db,
  type: string,
  filters: FieldFilter[],
): Promise<SandboxObject[]> {
  const rows = await db
    .select({ data: billingSandboxObjects.data })
    .from(billingSandboxObjects)
    .where(and(eq(billingSandboxObjects.type, type), ...filters.map(filterSql)))
    .orderBy(asc(billingSandboxObjects.seq));
  return rows.map((row) => row.data as SandboxObject);
}

export async function saveObject(db: Db, data: SandboxObject): Promise<void> {
  await db.update(billingSandboxObjects).set({ data }).where(eq(billingSandboxObjects.id, data.id));
}

/**
 * A filter on a field of the stored JSON, compared as text (`'true'` for booleans); a dotted
 * field (`items.data.0.price.id`) reaches into nested objects and arrays.
 */
export type FieldFilter =
  | { field: string; in: string[]; caseInsensitive?: boolean }
  | { field: string; isNull: true }
  | { field: string; gte?: number; lte?: number; gt?: number; lt?: number };

function fieldText(field: string): SQL {
  if (!field.includes('.')) return sql`(${billingSandboxObjects.data} ->> ${field})`;
  // Our own field names, never the caller's: a PostgreSQL array literal of the path.
  const path = `{${field.split('.').join(',')}}`;
  return sql`(${billingSandboxObjects.data} #>> ${path}::text[])`;
}

function filterSql(filter: FieldFilter): SQL {
  if ('in' in filter) {
    if (filter.in.length === 0) return sql`false`;
    if (!filter.caseInsensitive) return inArray(fieldText(filter.field), filter.in);
    const lower = filter.in.map((value) => value.toLowerCase());
    return inArray(sql`lower(${fieldText(filter.field)})`, lower);
  }
  if ('isNull' in filter) return isNull(fieldText(filter.field));
  const number = sql`${fieldText(filter.field)}::bigint`;
  const parts: SQL[] = [];
  if (filter.gte !== undefined) parts.push(sql`${number} >= ${filter.gte}`);
  if (filter.gt !== undefined) parts.push(sql`${number} > ${filter.gt}`);
  if (filter.lte !== undefined) parts.push(sql`${number} <= ${filter.lte}`);
  if (filter.lt !== undefined) parts.push(sql`${number} < ${filter.lt}`);
  return and(...parts) ?? sql`true`;
}

export type ListPage = { data: SandboxObject[]; hasMore: boolean };

/**
 * A page of objects newest first, as Stripe lists: after the cursor object (older ones) or,
 * with `endingBefore`, the page just before it (newer ones). An unknown cursor is the
 * caller's 404, so it is resolved before this is called.
 */
export async function listObjects(
  db: Db,
  type: string,
  options: {
    filters: FieldFilter[];
    limit: number;
    startingAfterSeq?: number;
    endingBeforeSeq?: number;
  },
): Promise<ListPage> {
  const conditions: SQL[] = [eq(billingSandboxObjects.type, type)];
  for (const filter of options.filters) conditions.push(filterSql(filter));
  const backwards = options.endingBeforeSeq !== undefined;
  if (options.startingAfterSeq !== undefined) {
    conditions.push(lt(billingSandboxObjects.seq, options.startingAfterSeq));
  }
  if (options.endingBeforeSeq !== undefined) {
    conditions.push(gt(billingSandboxObjects.seq, options.endingBeforeSeq));
  }
  const rows = await db
    .select({ data: billingSandboxObjects.data })
    .from(billingSandboxObjects)
    .where(and(...conditions))
    .orderBy(backwards ? asc(billingSandboxObjects.seq) : desc(billingSandboxObjects.seq))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit).map((row) => row.data as SandboxObject);
  if (backwards) page.reverse();
  return { data: page, hasMore: rows.length > options.limit };
}

/** The list position of an object of the type, for paging cursors. */
export async function objectSeq(db: Db, type: string, id: string): Promise<number | null> {
  if (!isObjectId(id)) return null;
  const rows = await db
    .select({ seq: billingSandboxObjects.seq })
    .from(billingSandboxObjects)
    .where(objectRow(type, id))
    .limit(1);
  return rows[0]?.seq ?? null;
}

/** PostgreSQL's unique_violation, from pg or PGlite, however deep the ORM wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    if ('code' in current && current.code === '23505') return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}
