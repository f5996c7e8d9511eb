import 'server-only';
import { invalidRequest } from '../errors';
import { EVENT_TYPE } from '../events';
import type { FieldFilter } from '../object-store';
import type { Params } from '../params';
import { type Route, type RouteContext, resourceRoutes } from './route';

/** /v1/events: retrieve and list (by `type`, `types[]` and `created`), newest first. */

/** `created` as an integer or a range hash (`created[gte]=…`). */
function createdFilter(params: Params): FieldFilter | null {
  if (!params.has('created')) return null;
  const range = (() => {
    try {
      const exact = params.integer('created', 0, Number.MAX_SAFE_INTEGER);
      return exact === undefined ? null : { gte: exact, lte: exact };
    } catch {
      return null;
    }
  })();
  if (range) return { field: 'created', ...range };
  const hash = params.object('created');
  if (!hash) return null;
  const filter = {
    field: 'created',
    gt: hash.integer('gt', 0, Number.MAX_SAFE_INTEGER),
    gte: hash.integer('gte', 0, Number.MAX_SAFE_INTEGER),
    lt: hash.integer('lt', 0, Number.MAX_SAFE_INTEGER),
    lte: hash.integer('lte', 0, Number.MAX_SAFE_INTEGER),
  };
  hash.finish();
  return filter;
}

function listFilters({ params }: RouteContext): FieldFilter[] {
  const filters: FieldFilter[] = [];
  const type = params.string('type', 200);
  const types = params.stringArray('types', 20);
  if (type && types) {
    throw invalidRequest('You may only specify one of these parameters: type, types.');
  }
  if (type) filters.push({ field: 'type', in: [type] });
  if (types) filters.push({ field: 'type', in: types });
  const created = createdFilter(params);
  if (created) filters.push(created);
  return filters;
}

export const eventRoutes: Route[] = resourceRoutes(['events'], EVENT_TYPE, {
  filters: listFilters,
});
