import 'server-only';
import { invalidParam, invalidRequest, missingParam } from './errors';
import type { FormObject, FormValue } from './form-body';
import { isObjectId } from './object-store';

/**
 * Typed reads of a decoded request, in Stripe's terms: every parameter a route reads is
 * marked, and `finish()` refuses the rest with Stripe's "Received unknown parameter", so a
 * typo in the app fails here as it would against Stripe instead of being silently ignored.
 */

export type Metadata = Record<string, string>;

/** Stripe's metadata limits. */
const METADATA_MAX_KEYS = 50;
const METADATA_MAX_KEY_LENGTH = 40;
const METADATA_MAX_VALUE_LENGTH = 500;

export class Params {
  private readonly read = new Set<string>();

  constructor(
    private readonly values: FormObject,
    private readonly prefix = '',
  ) {}

  private name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  private take(key: string): FormValue | undefined {
    this.read.add(key);
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.values, key);
  }

  string(key: string, maxLength = 5000): string | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      throw invalidRequest(`Invalid string: ${this.name(key)}`, this.name(key));
    }
    if (value.length > maxLength) {
      throw invalidParam(
        this.name(key),
        `Invalid string: ${this.name(key)} must be at most ${maxLength} characters.`,
      );
    }
    return value;
  }

  /**
   * The id a caller gives an object it creates (a product's, a coupon's): refused on creation
   * unless it is one the sandbox can find again (`isObjectId`), as Stripe refuses such ids.
   */
  objectId(key: string): string | undefined {
    const value = this.string(key, 200);
    if (value === undefined || isObjectId(value)) return value;
    throw invalidParam(
      this.name(key),
      `Invalid ${this.name(key)}: may only contain letters, digits, '_' and '-'.`,
    );
  }

  requiredString(key: string, maxLength?: number): string {
    const value = this.string(key, maxLength);
    if (value === undefined || value === '') throw missingParam(this.name(key));
    return value;
  }

  /** A string that may be sent empty to clear it (Stripe's "unset" for nullable fields). */
  nullableString(key: string, maxLength?: number): string | null | undefined {
    const value = this.string(key, maxLength);
    return value === '' ? null : value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidParam(
        this.name(key),
        `Invalid ${this.name(key)}: must be one of ${allowed.join(', ')}`,
      );
    }
    return value as T;
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidRequest(`Invalid boolean: ${value}`, this.name(key));
  }

  integer(key: string, min: number, max: number): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(value)) {
      throw invalidRequest(`Invalid integer: ${value}`, this.name(key));
    }
    const number = Number(value);
    if (number < min || number > max) {
      throw invalidRequest(
        `Invalid integer: ${this.name(key)} must be between ${min} and ${max}.`,
        this.name(key),
      );
    }
    return number;
  }

  /** A hash parameter, read with its own Params; its unknown keys are refused by `finish()`. */
  object(key: string): Params | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value === 'string') throw invalidRequest(`Invalid hash`, this.name(key));
    return new Params(value, this.name(key));
  }

  /** A hash Stripe lets be sent empty to unset it (`key=`): null then. */
  emptyableObject(key: string): Params | null | undefined {
    if (this.has(key) && this.values[key] === '') {
      this.read.add(key);
      return null;
    }
    return this.object(key);
  }

  /** `key[0][a]=…&key[1][a]=…`, each item a hash; `key=` (empty) is an empty list. */
  objectArray(key: string, maxItems: number): Params[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (value === '') return [];
    if (typeof value === 'string') throw invalidRequest(`Invalid array`, this.name(key));
    const keys = Object.keys(value);
    if (keys.length > maxItems) {
      throw invalidRequest(`Invalid array: at most ${maxItems} items.`, this.name(key));
    }
    return keys.map((_, index) => {
      const item = Object.hasOwn(value, String(index)) ? value[String(index)] : undefined;
      if (item === undefined || typeof item === 'string') {
        throw invalidRequest(`Invalid array`, this.name(key));
      }
      return new Params(item, `${this.name(key)}[${index}]`);
    });
  }

  /** `key[]=a&key[]=b` or `key[0]=a&key[1]=b`: indices must run 0…n-1. */
  stringArray(key: string, maxItems = 100): string[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (value === '') return [];
    if (typeof value === 'string') throw invalidRequest(`Invalid array`, this.name(key));
    const keys = Object.keys(value);
    if (keys.length > maxItems) {
      throw invalidRequest(`Invalid array: at most ${maxItems} items.`, this.name(key));
    }
    return keys.map((_, index) => {
      const item = Object.hasOwn(value, String(index)) ? value[String(index)] : undefined;
      if (typeof item !== 'string') throw invalidRequest(`Invalid array`, this.name(key));
      return item;
    });
  }

  /**
   * Metadata as Stripe applies it: the given keys are set, a key sent empty is removed, and
   * `metadata=` (empty) clears them all. Answers the new metadata from the current one.
   */
  metadata(current: Metadata = {}): Metadata | undefined {
    const value = this.take('metadata');
    if (value === undefined) return undefined;
    if (value === '') return {};
    if (typeof value === 'string') throw invalidRequest('Invalid hash', this.name('metadata'));
    const next: Metadata = { ...current };
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') throw invalidRequest('Invalid hash', this.name('metadata'));
      if (key.length > METADATA_MAX_KEY_LENGTH) {
        throw invalidRequest(
          `Metadata keys can have up to ${METADATA_MAX_KEY_LENGTH} characters.`,
          `metadata[${key}]`,
        );
      }
      if (item.length > METADATA_MAX_VALUE_LENGTH) {
        throw invalidRequest(
          `Metadata values can have up to ${METADATA_MAX_VALUE_LENGTH} characters.`,
          `metadata[${key}]`,
        );
      }
      if (item === '') delete next[key];
      else next[key] = item;
    }
    if (Object.keys(next).length > METADATA_MAX_KEYS) {
      throw invalidRequest(`Metadata can have up to ${METADATA_MAX_KEYS} keys.`, 'metadata');
    }
    return next;
  }

  /** Refuses any parameter no read asked for (nested hashes check their own on finish). */
  finish(...nested: (Params | null | undefined)[]): void {
    for (const key of Object.keys(this.values)) {
      if (!this.read.has(key)) {
        throw invalidRequest(
          `Received unknown parameter: ${this.name(key)}`,
          this.name(key),
          'parameter_unknown',
        );
      }
    }
    for (const params of nested) params?.finish();
  }
}
