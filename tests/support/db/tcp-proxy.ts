import net from 'node:net';

/**
 * A TCP proxy on loopback between the app and a database server, for outage tests: `cut()`
 * drops every connection and refuses new ones (a server that went away), `restore()` accepts
 * them again on the same port.
 */
export type TcpProxy = {
  port: number;
  /** The database URL with its host and port replaced by the proxy's. */
  url: (databaseUrl: string) => string;
  cut: () => Promise<void>;
  /** Refuses new connections but keeps those open (a server that stopped accepting). */
  refuseNew: () => Promise<void>;
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startTcpProxy(
  target: { host: string; port: number },
  options: { listening?: boolean } = {},
): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {}); // the other side is destroyed with it
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) =>
      server.listening ? server.close(() => resolve()) : resolve(),
    );
  };

  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  if (options.listening === false) await stop();
  return {
    port,
    url: (databaseUrl) => {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut: stop,
    // Not awaiting close(): its callback waits for the connections kept open.
    refuseNew: () => Promise.resolve(void server.close()),
    restore: () => listen(port),
    close: stop,
  };
}
