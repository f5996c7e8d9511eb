import 'server-only';
import type { Db } from '@/server/db/client';
import type { ListAnswer } from '../list';
import type { SandboxObject } from '../object-store';
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
