import 'server-only';
import { invalidRequest } from './errors';

/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation
 * (`metadata[a]=b`, `items[0][price]=p`, `expand[]=x`). Decoded into a tree of plain objects;
 * arrays stay objects keyed by index here, because only the reader of a parameter knows
 * whether `metadata[0]` is a map key or `expand[0]` an array index (see params.ts).
 * Everything is bounded, since the tree is walked recursively and kept as JSON.
 */

export type FormValue = string | FormObject;
export type FormObject = { [key: string]: FormValue };

export const FORM_LIMITS = {
  maxPairs: 1000,
  /** Brackets after the first name: `items[0][price_data][recurring][interval]` is 4. */
  maxDepth: 5,
  maxKeyLength: 200,
  maxValueLength: 5000,
};

const SEGMENT = /^\[([^[\]]*)\]/;

/** The name `a[b][]` as segments `['a', 'b', '']`; null when the brackets are malformed. */
function splitKey(key: string): string[] | null {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  const segments = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const match = SEGMENT.exec(rest);
    if (!match) return null;
    segments.push(match[1] ?? '');
    rest = rest.slice(match[0].length);
  }
  return segments;
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalidRequest('Invalid request: the body is not valid form encoding.');
  }
}

function isObject(value: FormValue | undefined): value is FormObject {
  return typeof value === 'object';
}

/** Decodes a query string or form body (without the leading `?`). */
export function decodeStripeForm(text: string): FormObject {
  const root: FormObject = {};
  if (text === '') return root;
  const pairs = text.split('&');
  if (pairs.length > FORM_LIMITS.maxPairs) {
    throw invalidRequest(`Invalid request: more than ${FORM_LIMITS.maxPairs} parameters.`);
  }
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    if (key.length > FORM_LIMITS.maxKeyLength) {
      throw invalidRequest('Invalid request: a parameter name is too long.');
    }
    // PostgreSQL keeps no NUL in text or JSON: a metadata key holding one could not be stored.
    if (key.includes('\u0000'))
      throw invalidRequest('Invalid request: a parameter name holds NUL.');
    if (value.length > FORM_LIMITS.maxValueLength || value.includes('\u0000')) {
      throw invalidRequest(`Invalid value for ${key}.`, key);
    }
    const segments = splitKey(key);
    if (!segments || segments[0] === '') {
      throw invalidRequest(`Invalid parameter name: ${key}`, key);
    }
    if (segments.length - 1 > FORM_LIMITS.maxDepth) {
      throw invalidRequest(`Invalid request: ${key} is nested too deeply.`, key);
    }
    assign(root, segments, value, key);
  }
  return root;
}

function assign(root: FormObject, segments: string[], value: string, key: string): void {
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    let segment = segments[i] ?? '';
    // `[]` appends: the next index of the array this node is.
    if (segment === '' && i > 0) segment = String(Object.keys(node).length);
    else if (segment === '') throw invalidRequest(`Invalid parameter name: ${key}`, key);
    if (segment === '__proto__') throw invalidRequest(`Invalid parameter name: ${key}`, key);
    const last = i === segments.length - 1;
    const existing = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (last) {
      if (existing !== undefined) {
        throw invalidRequest(`Invalid request: ${key} is given more than once.`, key);
      }
      node[segment] = value;
      return;
    }
    if (existing === undefined) {
      const child: FormObject = {};
      node[segment] = child;
      node = child;
    } else if (isObject(existing)) {
      node = existing;
    } else {
      throw invalidRequest(`Invalid request: ${key} is both a value and a hash.`, key);
    }
  }
}
