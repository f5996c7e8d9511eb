import type http from 'node:http';

/** How often connections that became idle (their last answer sent) are closed while stopping. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops an HTTP server the graceful way: no new connections; keep-alive connections closed as
 * soon as they are idle, so a request in flight finishes and its connection goes after the
 * answer; whatever is still open after `graceMs` cut. Resolves once every connection is gone.
 */
export function closeGracefully(server: http.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    sweep.unref();
    cut.unref();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
