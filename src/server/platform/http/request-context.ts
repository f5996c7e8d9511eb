import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { singleton } from '@/lib/singleton';

/**
 * The one per-request context (docs/decisions/046-one-request-pipeline.md). The front server's
 * pipeline (src/server/features/front/pipeline.ts) runs each request inside it, so whatever the request
 * reaches finds it here: the log line (its id), the framework's render (what the render saw,
 * src/server/features/audience/render-record.ts). One store per process: the framework's bundles load this
 * module apart from the front server, and singleton() hands them all the same store.
 *
 * Only what every layer may know lives in the type; a module above keeps what is its own by
 * the context object (a WeakMap), so nothing here names the layers that use it.
 */
export type RequestContext = { readonly requestId: string };

const requests = singleton('request-context', () => new AsyncLocalStorage<RequestContext>());

/** Runs `handle` as the request `context`: everything it starts, however deep, finds it. */
export function inRequest<T>(context: RequestContext, handle: () => T): T {
  return requests.run(context, handle);
}

/** The request being handled, or undefined outside one (a script, a timer of the server's own). */
export function currentRequest(): RequestContext | undefined {
  return requests.getStore();
}
