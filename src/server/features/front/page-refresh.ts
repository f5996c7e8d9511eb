import 'server-only';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Renews a page the cache holds as its previous version without any reader waiting for the
 * render (docs/decisions/044-purge-what-a-change-showed.md): the front server asks itself for
 * the page with the reader's own request headers and a header only it can set; that request
 * renders and stores the page, and its answer is thrown away. Meanwhile every reader of the
 * page, the one who found it stale included, gets the previous version.
 */
export const REFRESH_HEADER = 'x-axis-refresh';

/** Headers of one hop, not of the request. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);
/** Long enough for any render; the page is given up on (and rendered by a reader) after it. */
const REFRESH_TIMEOUT_MS = 10_000;

export type PageRefresher = {
  /** Whether the request is the server's own refresh; removes the header either way. */
  isRefresh(req: http.IncomingMessage): boolean;
  /** Asks for the page again as a refresh; `done` once it was rendered, or failed. */
  refresh(req: http.IncomingMessage, done: () => void): void;
};

export function pageRefresher(server: http.Server): PageRefresher {
  const secret = Buffer.from(randomBytes(24).toString('base64url'));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  return {
    isRefresh(req) {
      const value = req.headers[REFRESH_HEADER];
      delete req.headers[REFRESH_HEADER];
      return (
        typeof value === 'string' &&
        value.length === secret.length &&
        timingSafeEqual(Buffer.from(value), secret)
      );
    },
    refresh(req, done) {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        done();
      };
      const address = server.address() as AddressInfo | null;
      if (!address) return end();
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers))
        if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
      headers[REFRESH_HEADER] = secret.toString();
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const request = http.request(
        {
          host: wildcard ? (address.family === 'IPv6' ? '::1' : '127.0.0.1') : address.address,
          port: address.port,
          method: 'GET',
          path: req.url,
          headers,
          agent,
          timeout: REFRESH_TIMEOUT_MS,
        },
        (res) => {
          res.on('end', end).on('error', end).on('close', end).resume();
        },
      );
      request.on('error', end).on('timeout', () => request.destroy());
      request.end();
    },
  };
}
