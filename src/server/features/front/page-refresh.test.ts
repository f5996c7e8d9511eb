import http, { type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_HEADER, pageRefresher } from './page-refresh';

describe('the page refresher', () => {
  const seen: { url?: string; refresh: boolean; cookie?: string; header?: string }[] = [];
  const server = http.createServer((req, res) => {
    const refresh = refresher.isRefresh(req);
    seen.push({
      url: req.url,
      refresh,
      cookie: req.headers.cookie,
      header: req.headers[REFRESH_HEADER] as string | undefined,
    });
    res.end('ページ');
  });
  const refresher = pageRefresher(server);
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("asks the server for the page again with the reader's headers, as its own refresh", async () => {
    const reader = {
      url: '/posts/a?x=1',
      headers: { cookie: 'axis_audience=v', connection: 'close', [REFRESH_HEADER]: 'forged' },
    } as unknown as IncomingMessage;
    await new Promise<void>((done) => refresher.refresh(reader, done));
    expect(seen.at(-1)).toEqual({
      url: '/posts/a?x=1',
      refresh: true,
      cookie: 'axis_audience=v',
      header: undefined, // removed before anything reads the request
    });
  });

  it("never takes a client's header for its own", async () => {
    const { port } = server.address() as { port: number };
    for (const value of ['', 'x', 'a'.repeat(32)])
      await fetch(`http://127.0.0.1:${port}/posts/a`, { headers: { [REFRESH_HEADER]: value } });
    expect(seen.slice(-3).map((s) => [s.refresh, s.header])).toEqual([
      [false, undefined],
      [false, undefined],
      [false, undefined],
    ]);
  });
});
