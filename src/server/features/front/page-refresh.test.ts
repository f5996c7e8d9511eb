import http, { type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageRefresher } from './page-refresh';

describe('the page refresher', () => {
  const seen: { url?: string; refresh: boolean; cookie?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url, refresh: refresher.isRefresh(req), cookie: req.headers.cookie });
    res.end('ページ');
  });
  const refresher = pageRefresher(server);
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("asks the server for the page again with the reader's headers, as its own refresh", async () => {
    const reader = {
      url: '/posts/a?x=1',
      headers: { cookie: 'axis_audience=v', connection: 'close' },
    } as unknown as IncomingMessage;
    // Twice: the second time on the connection the first one left open.
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((done) => refresher.refresh(reader, done));
      expect(seen.at(-1)).toEqual({
        url: '/posts/a?x=1',
        refresh: true,
        cookie: 'axis_audience=v',
      });
    }
  });

  it('never takes a request on a connection of anyone else for its own, whatever it sends', async () => {
    const { port } = server.address() as { port: number };
    // Names the old header and any header of the server's own: nothing in a request counts.
    for (const name of ['x-axis-refresh', 'x-axis-render'])
      await fetch(`http://127.0.0.1:${port}/posts/a`, { headers: { [name]: 'a'.repeat(32) } });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((done) =>
      http.get({ port, host: '127.0.0.1', path: '/posts/b', agent }, (res) => {
        res.resume().on('end', done);
      }),
    );
    agent.destroy();
    expect(seen.slice(-3).map((s) => s.refresh)).toEqual([false, false, false]);
  });
});
