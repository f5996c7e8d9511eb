import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A handler may answer before reading the request's body to its end (413 on a declared or
 * counted size). The web-stream bridge under the handlers has then paused or destroyed the
 * request, and Node neither drains the rest nor reads the connection again, so a kept-alive
 * client's next request on it would wait unanswered until the client gives up.
 *
 * So a body still arriving when the answer starts is not read (it may be large) and the answer
 * says `Connection: close`, as Go's server does. A body that has all arrived is drained by Node
 * and the connection kept.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((...args: Parameters<typeof writeHead>) => {
    if (!req.complete) res.shouldKeepAlive = false;
    return writeHead(...args);
  }) as typeof writeHead;
}
