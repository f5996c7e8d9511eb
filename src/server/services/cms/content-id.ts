import 'server-only';
import type { EndpointDef } from '@/lib/cms/model';

/** A list item's id, as microCMS allows it (and as PostgreSQL text can hold it: no NUL). */
export const CONTENT_ID = /^[A-Za-z0-9_-]{1,50}$/;

/**
 * Whether an item with this id can exist in the endpoint: a list item's id matches CONTENT_ID,
 * an object endpoint's one content has the id ''. Every read and write of the store asks this
 * first, so an id that cannot exist is answered as a missing one, never a database error.
 */
export function canExist(def: Pick<EndpointDef, 'kind'>, id: string): boolean {
  return def.kind === 'list' ? CONTENT_ID.test(id) : id === '';
}
