import 'server-only';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { clientAddress } from '@/server/platform/rate-limit/client-address';

/**
 * Renews a page the cache holds as its previous version without any reader waiting for the
 * render (docs/decisions/044-purge-what-a-change-showed.md): the front server asks itself for
 * the page with the reader's own request headers, on connections of its own; a request that
 * arrives on one of them renders and stores the page, and its answer is thrown away. Meanwhile
 * every reader of the page, the one who found it stale included, gets the previous version.
 *
 * Which requests are the server's own is known from their connection, never from anything in
 * the request: the refresher notes both ends (address and port) of each connection it opens,
 * for as long as it is open. No other connection can have those two ends meanwhile, and no
 * header a client sends can make its request a refresh.
 */

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
  /** Whether the request came on one of the refresher's own connections. */
  isRefresh(req: http.IncomingMessage): boolean;
  /** Asks for the page again as a refresh; `done` once it was rendered, or failed. */
  refresh(req: http.IncomingMessage, done: () => void): void;
};

/** One end of a connection, spelled the same from both sides (`::ffff:127.0.0.1` is IPv4). */
const endOf = (address: string | undefined, port: number | undefined) =>
  `${clientAddress(address, undefined, false)} ${port}`;

/** A connection from the client's end to the server's. */
const connection = (
  client: [string | undefined, number | undefined],
  server: [string | undefined, number | undefined],
) => `${endOf(...client)} > ${endOf(...server)}`;

export function pageRefresher(server: http.Server): PageRefresher {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  /** The refresher's open connections, by the port of its own end (looked up first: cheap). */
  const ours = new Map<number | undefined, string>();
  const noted = new WeakSet<Socket>();
  const note = (socket: Socket) => {
    if (noted.has(socket)) return; // a kept-alive connection, used again
    noted.add(socket);
    const port = socket.localPort;
    const ends = connection([socket.localAddress, port], [socket.remoteAddress, socket.remotePort]);
    ours.set(port, ends);
    socket.once('close', () => {
      if (ours.get(port) === ends) ours.delete(port);
    });
  };
  return {
    isRefresh({ socket }) {
      const ends = ours.get(socket.remotePort);
      if (ends === undefined) return false; // most requests: no such port of ours
      const seen = connection(
        [socket.remoteAddress, socket.remotePort],
        [socket.localAddress, socket.localPort],
      );
      return seen === ends;
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
      // Noted before the request can reach the server: it is sent once the connection is open.
      request.on('socket', (socket: Socket) => {
        if (socket.connecting) socket.once('connect', () => note(socket));
        else note(socket);
      });
      request.on('error', end).on('timeout', () => request.destroy());
      request.end();
    },
  };
}
