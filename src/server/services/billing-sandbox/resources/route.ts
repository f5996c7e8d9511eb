import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { type ListAnswer, listAnswer } from '../list';
import { type FieldFilter, type SandboxObject, requireObject } from '../object-store';
import type { Params } from '../params';

/** What a resource route gets: the request's parameters (query or form) and the path's ids. */
export type RouteContext = {
  db: Db;
  params: Params;
  /** The path without the query, for a list's `url`. */
  path: string;
  id?: string;
};

export type RouteResult = SandboxObject | ListAnswer;

export type Route = {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path segments after /v1/; `:id` matches one object id. */
  pattern: string[];
  handle: (context: RouteContext) => Promise<RouteResult>;
};

/**
 * A route as the router calls it: with the request's origin too, for the objects that name a
 * page of the site (a checkout session's or a portal session's `url`). Every plain Route is one.
 */
export type SiteRouteContext = RouteContext & { origin: string };
export type SiteRoute = Omit<Route, 'handle'> & {
  handle: (context: SiteRouteContext) => Promise<RouteResult>;
};

/** A list's filters, starting with `active` when the query has it (products, prices, codes). */
export function filtersWithActive(params: Params): FieldFilter[] {
  const active = params.boolean('active');
  return active === undefined ? [] : [{ field: 'active', in: [String(active)] }];
}

/** What Stripe calls an object of the type in its errors (`No such test_clock: …`), if not the type. */
type Naming = { kind?: string };

/**
 * `GET /v1/{pattern}`: Stripe's list of the type, newest first and paged, narrowed by the
 * filters `filters` reads from the query. As on Stripe, a parameter the list does not know is
 * refused once every known one has been read.
 */
export function listRoute<Context extends RouteContext = RouteContext>(
  pattern: string[],
  type: string,
  options: Naming & {
    filters?: (context: Context) => FieldFilter[] | Promise<FieldFilter[]>;
  } = {},
) {
  return {
    method: 'GET' as const,
    pattern,
    handle: async (context: Context): Promise<ListAnswer> => {
      const filters = options.filters ? await options.filters(context) : [];
      const { db, params, path } = context;
      const answer = await listAnswer(db, type, options.kind ?? type, params, path, filters);
      params.finish();
      return answer;
    },
  };
}

/** `GET /v1/{pattern}` with `:id`: the object of the type, or Stripe's 404 for it. */
export function retrieveRoute(pattern: string[], type: string, naming: Naming = {}): Route {
  return {
    method: 'GET',
    pattern,
    handle: async (context) => {
      context.params.finish();
      return requireObject(context.db, type, context.id ?? '', naming);
    },
  };
}

/**
 * Runs `change` on the route's object (`context.id`) in one transaction that holds its row
 * lock until the end, so that concurrent changes to one object (an update racing a test
 * clock's advance) run one after the other; Stripe's 404 when there is no such object.
 */
export async function changeLocked<T>(
  context: RouteContext,
  type: string,
  change: (db: Db, current: SandboxObject) => Promise<T>,
  naming: Naming = {},
): Promise<T> {
  return context.db.transaction(async (db) => {
    const current = await requireObject(db, type, context.id ?? '', { ...naming, lock: true });
    return change(db, current);
  });
}

/**
 * A resource's routes as Stripe lays them out under `/v1/{segments}`: `POST` creates, `GET`
 * lists (listRoute, with `filters`); on `/:id`, `GET` retrieves (retrieveRoute), `POST`
 * updates and `DELETE` deletes or cancels. Only the handlers given are routed.
 */
export function resourceRoutes(
  segments: string[],
  type: string,
  handlers: Naming & {
    create?: Route['handle'];
    filters?: (context: RouteContext) => FieldFilter[] | Promise<FieldFilter[]>;
    update?: Route['handle'];
    remove?: Route['handle'];
  },
): Route[] {
  const { create, filters, update, remove, kind } = handlers;
  const one = [...segments, ':id'];
  const routes: Route[] = [
    listRoute(segments, type, { filters, kind }),
    retrieveRoute(one, type, { kind }),
  ];
  if (create) routes.push({ method: 'POST', pattern: segments, handle: create });
  if (update) routes.push({ method: 'POST', pattern: one, handle: update });
  if (remove) routes.push({ method: 'DELETE', pattern: one, handle: remove });
  return routes;
}
