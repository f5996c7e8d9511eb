import 'server-only';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { badRequest } from './errors';
import { CONTENT_ID } from './content-id';
import type { EndpointDef, FieldDef } from '@/lib/cms/model';
import { z } from '@/lib/zod';

/**
 * Write validation and read shaping of field values, per field kind, with microCMS's error
 * messages. Stored values are already in their API shape (references as ids).
 */

export type StoredData = Record<string, unknown>;
export type Image = { url: string; width?: number; height?: number; alt?: string };
export type FileValue = { url: string; fileSize?: number };

const SYSTEM_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'revisedAt']);
const URL_MAX = 2000;

const unexpectedType = (id: string) => badRequest(`'${id}' has unexpected data type.`);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isSafeUrl(url: string): boolean {
  if (url.length > URL_MAX) return false;
  if (url.startsWith('/') && !url.startsWith('//')) return true; // our own uploads
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function checkLength(field: FieldDef, value: string): void {
  if (field.maxLength !== undefined && Array.from(value).length > field.maxLength) {
    throw badRequest(
      `'${field.id}' is too long. Please input ${field.maxLength} characters or less.`,
    );
  }
}

/**
 * An image or a file is given as its URL or as an object with one (only http(s) either way):
 * the URL, and the object whose other members the caller checks (null for a bare URL).
 */
function mediaValue(
  field: FieldDef,
  value: unknown,
): { url: string; object: Record<string, unknown> | null } {
  if (typeof value === 'string') {
    if (!isSafeUrl(value)) throw unexpectedType(field.id);
    return { url: value, object: null };
  }
  if (!isPlainObject(value) || typeof value.url !== 'string' || !isSafeUrl(value.url))
    throw unexpectedType(field.id);
  return { url: value.url, object: value };
}

function normalizeImage(field: FieldDef, given: unknown): Image {
  const { url, object: value } = mediaValue(field, given);
  const image: Image = { url };
  if (!value) return image;
  for (const dim of ['width', 'height'] as const) {
    const n = value[dim];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0 || n > 100_000)
      throw unexpectedType(field.id);
    image[dim] = n;
  }
  if (value.alt !== undefined) {
    if (typeof value.alt !== 'string' || value.alt.length > 500) throw unexpectedType(field.id);
    image.alt = value.alt;
  }
  return image;
}

function normalizeFile(field: FieldDef, given: unknown): FileValue {
  const { url, object: value } = mediaValue(field, given);
  const file: FileValue = { url };
  if (!value) return file;
  if (value.fileSize !== undefined) {
    if (
      typeof value.fileSize !== 'number' ||
      !Number.isInteger(value.fileSize) ||
      value.fileSize < 0
    ) {
      throw unexpectedType(field.id);
    }
    file.fileSize = value.fileSize;
  }
  return file;
}

const DATE_VALUE =
  /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * A date field's value as an ISO instant, or null: only days and times that exist, since
 * Date.parse rolls 2026-02-30 over to 2 March and 24:00 to the next day without a word.
 */
export function normalizeDate(value: string): string | null {
  const parts = DATE_VALUE.exec(value);
  if (!parts || !z.iso.date().safeParse(parts[1]).success) return null;
  const [hours = '0', minutes = '0', seconds = '0'] = parts.slice(2).map((part) => part ?? '0');
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * Whether a value leaves its field empty. That is what a read gives for an empty field (null
 * for a single reference, [] for a select or multiple references; microCMS also gives null for
 * empty text and numbers) and what PATCH empties a field with ('' / [] / null / {}, microCMS
 * rules), so an answer can always be written back: on create it counts as left out, on PATCH
 * it clears the field.
 */
function isEmptyValue(field: FieldDef, value: unknown): boolean {
  if (value === null) return true;
  switch (field.kind) {
    case 'select':
    case 'relationList':
      return Array.isArray(value) && value.length === 0;
    case 'boolean':
    case 'number':
      return false;
    case 'relation':
      return isPlainObject(value) && Object.keys(value).length === 0;
    case 'custom':
      return (
        isPlainObject(value) &&
        Object.entries(value).every(([key, inner]) => {
          if (key === 'fieldId' || inner === undefined || inner === false) return true;
          const def = innerField(field, key);
          // An unknown key is not empty: the write names it.
          return def !== undefined && isEmptyValue(def, inner);
        })
      );
    default:
      return value === '';
  }
}

function innerField(field: FieldDef, id: string): FieldDef | undefined {
  return field.fields?.find((f) => f.id === id);
}

/**
 * A custom field's value: its inner fields checked as fields of their own (errors name them
 * `seo.metaTitle`), empty ones left out, `fieldId` (optional on write) its own.
 */
function normalizeCustom(field: FieldDef, value: unknown): StoredData {
  if (!isPlainObject(value)) throw unexpectedType(field.id);
  const out: StoredData = { fieldId: field.customFieldId ?? field.id };
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'fieldId') {
      if (inner !== out.fieldId) throw unexpectedType(field.id);
      continue;
    }
    const def = innerField(field, key);
    if (!def) throw badRequest(`'${field.id}.${key}' is unexpected key.`);
    if (inner === undefined || isEmptyValue(def, inner)) continue;
    const stored = normalizeValue({ ...def, id: `${field.id}.${def.id}` }, inner);
    if (stored !== '' && stored !== false) out[def.id] = stored;
  }
  return out;
}

/** Validates one field's value; returns the stored value. References are checked later. */
function normalizeValue(field: FieldDef, value: unknown): unknown {
  switch (field.kind) {
    case 'text':
    case 'textArea': {
      if (typeof value !== 'string') throw unexpectedType(field.id);
      checkLength(field, value);
      if (
        field.urlPrefixes &&
        value !== '' &&
        !field.urlPrefixes.some((p) => value.startsWith(p))
      ) {
        throw badRequest(
          `'${field.id}' field error. Please input a URL starting with ${field.urlPrefixes.join(' or ')}.`,
        );
      }
      if (field.urlPrefixes && value !== '' && !value.startsWith('mailto:') && !isSafeUrl(value)) {
        throw unexpectedType(field.id);
      }
      return value;
    }
    case 'richEditor': {
      if (typeof value !== 'string') throw unexpectedType(field.id);
      checkLength(field, value);
      return sanitizeRichText(value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw unexpectedType(field.id);
      if (field.integer && !Number.isInteger(value))
        throw badRequest(`'${field.id}' field error. Please input an integer.`);
      if (
        (field.min !== undefined && value < field.min) ||
        (field.max !== undefined && value > field.max)
      ) {
        throw badRequest(
          `'${field.id}' is out of range. Please input a number from ${field.min} to ${field.max}.`,
        );
      }
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw unexpectedType(field.id);
      return value;
    case 'date': {
      if (typeof value !== 'string') throw unexpectedType(field.id);
      const iso = normalizeDate(value);
      if (!iso) throw badRequest(`'${field.id}' field error. Please fix date format.`);
      return iso;
    }
    case 'select': {
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string'))
        throw unexpectedType(field.id);
      const options = field.options ?? [];
      const bad = (list as string[]).find((v) => !options.includes(v));
      if (bad !== undefined)
        throw badRequest(`'${field.id}' field error. '${bad}' is not an option.`);
      if (!field.multiple && list.length > 1)
        throw badRequest(`'${field.id}' field error. Only one option can be selected.`);
      return [...new Set(list as string[])];
    }
    case 'media':
      return normalizeImage(field, value);
    case 'file':
      return normalizeFile(field, value);
    case 'relation': {
      const id = isPlainObject(value) && typeof value.id === 'string' ? value.id : value;
      if (typeof id !== 'string' || !CONTENT_ID.test(id)) throw unexpectedType(field.id);
      return id;
    }
    case 'relationList': {
      if (!Array.isArray(value) || value.length > 100) throw unexpectedType(field.id);
      const ids = value.map((v: unknown) =>
        isPlainObject(v) && typeof v.id === 'string' ? v.id : v,
      );
      if (ids.some((id) => typeof id !== 'string' || !CONTENT_ID.test(id)))
        throw unexpectedType(field.id);
      return [...new Set(ids as string[])];
    }
    case 'custom':
      return normalizeCustom(field, value);
  }
}

export type WriteMode = 'create' | 'patch';

export type ValidatedWrite = {
  /** Fields to set (create: the whole item). */
  set: StoredData;
  /** PATCH: fields to clear. */
  clear: string[];
  publishedAt?: string;
  /** References to check: endpoint → ids. */
  references: Map<string, Set<string>>;
};

/** PostgreSQL's jsonb refuses NUL characters and lone surrogates: such a body is malformed. */
function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed();
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (isPlainObject(value))
    return Object.entries(value).some(([k, v]) => hasUnstorableText(k) || hasUnstorableText(v));
  return false;
}

export function validateWrite(def: EndpointDef, body: unknown, mode: WriteMode): ValidatedWrite {
  if (body === undefined) throw badRequest('Request body is empty.');
  if (!isPlainObject(body) || hasUnstorableText(body)) throw badRequest('Syntax error.');
  const set: StoredData = {};
  const clear: string[] = [];
  const references = new Map<string, Set<string>>();
  let publishedAt: string | undefined;
  let userFields = 0;

  for (const [key, value] of Object.entries(body)) {
    if (key === 'publishedAt') {
      const iso = typeof value === 'string' ? normalizeDate(value) : null;
      if (!iso) throw badRequest(`'publishedAt' field error. Please fix date format.`);
      publishedAt = iso;
      continue;
    }
    const field = def.fields.find((f) => f.id === key);
    if (!field || SYSTEM_KEYS.has(key)) throw badRequest(`'${key}' is unexpected key.`);
    userFields++;
    if (value === undefined) continue;
    const stored = isEmptyValue(field, value) ? undefined : normalizeValue(field, value);
    // Rich text may sanitise to nothing: that is empty too.
    if (stored === undefined || stored === '') {
      if (mode === 'patch') clear.push(key);
      continue;
    }
    set[key] = stored;
    if ((field.kind === 'relation' || field.kind === 'relationList') && field.endpoint) {
      const ids = references.get(field.endpoint) ?? new Set<string>();
      for (const id of Array.isArray(stored) ? (stored as string[]) : [stored as string])
        ids.add(id);
      references.set(field.endpoint, ids);
    }
  }

  if (userFields === 0) throw badRequest('Please include one or more user-defined fields.');
  if (mode === 'create') {
    for (const field of def.fields) {
      if (field.required && (set[field.id] === undefined || set[field.id] === '')) {
        throw badRequest(`'${field.id}' field required error.`);
      }
    }
    checkForbidden(def, set);
  }
  return { set, clear, publishedAt, references };
}

/**
 * After a PATCH, required fields must still have a value, and no field may hold one its
 * `forbiddenBy` field rules out (a price on a public post).
 */
export function checkRequired(def: EndpointDef, data: StoredData): void {
  for (const field of def.fields) {
    if (field.required && (data[field.id] === undefined || data[field.id] === '')) {
      throw badRequest(`'${field.id}' field required error.`);
    }
  }
  checkForbidden(def, data);
}

/** The field a whole item's data fills although its `forbiddenBy` field is true, if any. */
export function forbiddenField(def: EndpointDef, data: StoredData): FieldDef | undefined {
  return def.fields.find(
    (field) =>
      field.forbiddenBy !== undefined &&
      data[field.forbiddenBy] === true &&
      data[field.id] !== undefined &&
      data[field.id] !== null,
  );
}

function checkForbidden(def: EndpointDef, data: StoredData): void {
  const field = forbiddenField(def, data);
  if (field) {
    throw badRequest(
      `'${field.id}' field error. It cannot be set while '${field.forbiddenBy}' is true.`,
    );
  }
}

/**
 * The API shape of stored data, as microCMS reads: empty selects and multiple references are [],
 * an empty boolean false, an empty single reference null; other empty fields (text stored empty
 * by older writes too) have no key.
 */
export function shapeFields(def: EndpointDef, data: StoredData): StoredData {
  const out: StoredData = {};
  for (const field of def.fields) {
    const value = data[field.id];
    switch (field.kind) {
      case 'select':
      case 'relationList':
        out[field.id] = Array.isArray(value) ? value : [];
        break;
      case 'boolean':
        out[field.id] = value === true;
        break;
      case 'relation':
        out[field.id] = value ?? null;
        break;
      case 'custom':
        out[field.id] = isPlainObject(value) ? shapeCustom(field, value) : null;
        break;
      default:
        if (value !== undefined && value !== null && value !== '') out[field.id] = value;
    }
  }
  return out;
}

/** A stored custom field as microCMS reads it: `fieldId`, then its inner fields shaped alike. */
function shapeCustom(field: FieldDef, value: StoredData): StoredData {
  const inner: EndpointDef = {
    endpoint: '',
    label: '',
    kind: 'object',
    fields: field.fields ?? [],
  };
  return { fieldId: field.customFieldId ?? field.id, ...shapeFields(inner, value) };
}
