import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from './graceful-close';

/** A real server on a free port whose answers take `delayMs` (never, with Infinity). */
async function slowServer(delayMs: number): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((_req, res) => {
    if (delayMs === Infinity) return;
    setTimeout(() => res.end('done'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/` };
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: new http.Agent({ keepAlive: true }) }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

describe('closeGracefully', () => {
  it('lets a request in flight finish, then refuses new connections', async () => {
    const { server, url } = await slowServer(300);
    servers.push(server);
    const inFlight = get(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closeGracefully(server, 5_000);
    await expect(inFlight).resolves.toEqual({ status: 200, body: 'done' });
    await closed;
    await expect(get(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('cuts a request that outlives the grace period, and is done within it', async () => {
    const { server, url } = await slowServer(Infinity);
    servers.push(server);
    const stuck = get(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await closeGracefully(server, 200);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(stuck).rejects.toThrow();
  });
});
