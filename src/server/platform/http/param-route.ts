import 'server-only';

/**
 * A route handler of a dynamic segment that hands its one parameter to the server's handler, so
 * each file under src/app/api names what it routes and nothing else. Next passes the segment's
 * parameters as a promise (`{ params: Promise<{ name: string }> }`).
 */
export function paramRoute<Name extends string>(
  name: Name,
  handle: (request: Request, value: string) => Promise<Response>,
): (request: Request, context: { params: Promise<Record<Name, string>> }) => Promise<Response> {
  return async (request, { params }) => handle(request, (await params)[name]);
}

/**
 * A route handler under /api/admin/content/[endpoint]/[contentId] that hands both segments to
 * the console's handler, as paramRoute does for one.
 */
export function contentItemRoute(
  handle: (request: Request, endpoint: string, contentId: string) => Promise<Response>,
): (
  request: Request,
  context: { params: Promise<{ endpoint: string; contentId: string }> },
) => Promise<Response> {
  return async (request, { params }) => {
    const { endpoint, contentId } = await params;
    return handle(request, endpoint, contentId);
  };
}
