import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import { invalidParameter } from './errors';
import { type EndpointDef, type FieldDef, SYSTEM_DATE_FIELDS, findField } from '@/lib/cms/model';
import type { FilterNode } from './query/filters';
import { normalizeDate } from './values';

/**
 * Compiles parsed `filters` and `orders` into SQL over cms_contents, with every value bound
 * as a parameter. Anything the model cannot answer (an unknown field, an operator the field's
 * kind does not support, a value of the wrong type) is a 400 `invalid parameter.`, never a
 * database error.
 */

const SYSTEM_COLUMNS = {
  createdAt: sql.raw('created_at'),
  updatedAt: sql.raw('updated_at'),
  publishedAt: sql.raw('published_at'),
  revisedAt: sql.raw('revised_at'),
} as const;

/** A model field id as an SQL literal: ids come from the model, never from the request. */
function key(fieldId: string): SQL {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(fieldId))
    throw new Error(`bad field id in model: ${fieldId}`);
  return sql.raw(`'${fieldId}'`);
}

const NUMBER = /^-?\d{1,15}(\.\d{1,10})?$/;

/** The ISO text of a timestamp column, as the API shows it (UTC, milliseconds). */
function isoText(column: SQL): SQL {
  return sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function dateValue(value: string): string {
  const iso = normalizeDate(value);
  if (!iso) throw invalidParameter();
  return iso;
}

function systemCondition(field: string, operator: string, value: string): SQL {
  if (field === 'id') {
    switch (operator) {
      case 'equals':
        return sql`id = ${value}`;
      case 'not_equals':
        return sql`id <> ${value}`;
      case 'contains':
        return sql`strpos(id, ${value}) > 0`;
      case 'not_contains':
        return sql`strpos(id, ${value}) = 0`;
      case 'begins_with':
        return sql`starts_with(id, ${value})`;
      case 'exists':
        return sql`true`;
      case 'not_exists':
        return sql`false`;
      default:
        throw invalidParameter();
    }
  }
  const column = SYSTEM_COLUMNS[field as keyof typeof SYSTEM_COLUMNS];
  switch (operator) {
    case 'equals':
      return sql`${column} = ${dateValue(value)}::timestamptz`;
    case 'not_equals':
      return sql`${column} IS DISTINCT FROM ${dateValue(value)}::timestamptz`;
    case 'less_than':
      return sql`${column} < ${dateValue(value)}::timestamptz`;
    case 'greater_than':
      return sql`${column} > ${dateValue(value)}::timestamptz`;
    case 'begins_with':
      return sql`starts_with(${isoText(column)}, ${value})`;
    case 'exists':
      return sql`${column} IS NOT NULL`;
    case 'not_exists':
      return sql`${column} IS NULL`;
    default:
      throw invalidParameter();
  }
}

function fieldCondition(data: SQL, field: FieldDef, operator: string, value: string): SQL {
  const text = sql`(${data}->>${key(field.id)})`;
  const json = sql`(${data}->${key(field.id)})`;
  const exists = sql`coalesce(${text}, '') <> ''`;
  const notExists = sql`coalesce(${text}, '') = ''`;
  /** Presence and prefix, which text and date fields (both stored as strings) answer alike. */
  const asString = (): SQL => {
    if (operator === 'exists') return exists;
    if (operator === 'not_exists') return notExists;
    if (operator === 'begins_with') return sql`coalesce(starts_with(${text}, ${value}), false)`;
    throw invalidParameter();
  };
  switch (field.kind) {
    case 'text':
    case 'textArea':
    case 'richEditor': {
      const comparable = field.kind !== 'richEditor';
      switch (operator) {
        case 'equals':
          if (!comparable) break;
          return sql`${data} @> jsonb_build_object(${key(field.id)}, ${value}::text)`;
        case 'not_equals':
          if (!comparable) break;
          return sql`${text} IS DISTINCT FROM ${value}`;
        case 'contains':
          return sql`strpos(${text}, ${value}) > 0`;
        case 'not_contains':
          return sql`coalesce(strpos(${text}, ${value}), 0) = 0`;
      }
      return asString();
    }
    case 'number': {
      const number = sql`(${text})::numeric`;
      if (operator === 'exists') return sql`${text} IS NOT NULL`;
      if (operator === 'not_exists') return sql`${text} IS NULL`;
      if (!NUMBER.test(value)) throw invalidParameter();
      switch (operator) {
        case 'equals':
          return sql`${data} @> jsonb_build_object(${key(field.id)}, ${value}::numeric)`;
        case 'not_equals':
          return sql`${number} IS DISTINCT FROM ${value}::numeric`;
        case 'less_than':
          return sql`${number} < ${value}::numeric`;
        case 'greater_than':
          return sql`${number} > ${value}::numeric`;
      }
      break;
    }
    case 'boolean': {
      // An empty boolean reads as false, so `exists` is always true (microCMS).
      if (operator === 'exists') return sql`true`;
      if (operator === 'not_exists') return sql`false`;
      if (value !== 'true' && value !== 'false') throw invalidParameter();
      const flag = sql`coalesce((${text})::boolean, false)`;
      // true is stored as true; false may also be absent, so only `equals true` is containment.
      if (operator === 'equals' && value === 'true')
        return sql`${data} @> jsonb_build_object(${key(field.id)}, true)`;
      if (operator === 'equals') return sql`${flag} = false`;
      if (operator === 'not_equals') return sql`${flag} <> ${value === 'true'}`;
      break;
    }
    case 'date': {
      switch (operator) {
        case 'equals':
          return sql`${text} = ${dateValue(value)}`;
        case 'not_equals':
          return sql`${text} IS DISTINCT FROM ${dateValue(value)}`;
        // Stored dates are normalised ISO strings in UTC: text order is time order.
        case 'less_than':
          return sql`${text} < ${dateValue(value)}`;
        case 'greater_than':
          return sql`${text} > ${dateValue(value)}`;
      }
      return asString();
    }
    case 'select':
    case 'relationList': {
      const member = sql`${data} @> jsonb_build_object(${key(field.id)}, jsonb_build_array(${value}::text))`;
      const nonEmpty = sql`coalesce(jsonb_typeof(${json}) = 'array' AND jsonb_array_length(${json}) > 0, false)`;
      switch (operator) {
        case 'contains':
        case 'equals':
          return member;
        case 'not_contains':
        case 'not_equals':
          return sql`NOT ${member}`;
        case 'exists':
          return nonEmpty;
        case 'not_exists':
          return sql`NOT ${nonEmpty}`;
      }
      break;
    }
    case 'relation': {
      switch (operator) {
        case 'equals':
          return sql`${data} @> jsonb_build_object(${key(field.id)}, ${value}::text)`;
        case 'not_equals':
          return sql`${text} IS DISTINCT FROM ${value}`;
        case 'exists':
          return exists;
        case 'not_exists':
          return notExists;
      }
      break;
    }
    case 'media':
    case 'file': {
      if (operator === 'exists')
        return sql`${json} IS NOT NULL AND jsonb_typeof(${json}) = 'object'`;
      if (operator === 'not_exists')
        return sql`(${json} IS NULL OR jsonb_typeof(${json}) <> 'object')`;
      break;
    }
  }
  throw invalidParameter();
}

export function compileFilter(def: EndpointDef, data: SQL, node: FilterNode): SQL {
  if (node.kind === 'and' || node.kind === 'or') {
    const parts = node.children.map((child) => compileFilter(def, data, child));
    return sql`(${sql.join(parts, node.kind === 'and' ? sql` AND ` : sql` OR `)})`;
  }
  const { field, operator, value } = node;
  if (field === 'id' || (SYSTEM_DATE_FIELDS as readonly string[]).includes(field)) {
    return sql`(${systemCondition(field, operator, value)})`;
  }
  const [outerId = '', innerId, ...deeper] = field.split('.');
  const fieldDef = findField(def, outerId);
  if (!fieldDef || deeper.length > 0) throw invalidParameter();
  if (innerId === undefined) {
    if (fieldDef.kind === 'custom') throw invalidParameter();
    return sql`(${fieldCondition(data, fieldDef, operator, value)})`;
  }
  // A custom field's inner field (`seo.noIndex[equals]true`): the same rules, one level down.
  const inner = fieldDef.kind === 'custom' ? fieldDef.fields?.find((f) => f.id === innerId) : null;
  if (!inner) throw invalidParameter();
  return sql`(${fieldCondition(sql`(${data}->${key(outerId)})`, inner, operator, value)})`;
}

export type Order = { field: string; direction: 'asc' | 'desc' };

/** ORDER BY terms. Sortable: system dates, id, and text, number and date fields. */
export function compileOrders(def: EndpointDef, data: SQL, orders: readonly Order[]): SQL[] {
  return orders.map(({ field, direction }) => {
    const dir = direction === 'desc' ? sql.raw('DESC NULLS LAST') : sql.raw('ASC NULLS LAST');
    if (field === 'id') return sql`id ${dir}`;
    if ((SYSTEM_DATE_FIELDS as readonly string[]).includes(field)) {
      return sql`${SYSTEM_COLUMNS[field as keyof typeof SYSTEM_COLUMNS]} ${dir}`;
    }
    const fieldDef = findField(def, field);
    if (!fieldDef) throw invalidParameter();
    switch (fieldDef.kind) {
      case 'number':
        return sql`(${data}->>${key(field)})::numeric ${dir}`;
      case 'text':
      case 'textArea':
      case 'date':
        return sql`(${data}->>${key(field)}) ${dir}`;
      default:
        throw invalidParameter();
    }
  });
}
