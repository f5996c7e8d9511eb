import type http from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, routeConsoleToLog } from './logger';
import { logAnswer, requestIdFor } from './request-log';

const req = (url: string, headers: http.IncomingHttpHeaders = {}) =>
  ({ url, method: 'GET', headers }) as http.IncomingMessage;

describe('the request id', () => {
  it("keeps a trusted proxy's id, and only one that looks like an id", () => {
    expect(requestIdFor(req('/', { 'x-request-id': 'abcd1234-nginx' }), true)).toBe(
      'abcd1234-nginx',
    );
    for (const forged of [
      'short',
      'x'.repeat(129),
      'abc\r\nSet-Cookie: a=b',
      'id with spaces',
      '<script>alert(1)</script>',
    ]) {
      const id = requestIdFor(req('/', { 'x-request-id': forged }), true);
      expect(id).not.toBe(forged);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('ignores what a client says when no proxy is trusted', () => {
    const id = requestIdFor(req('/', { 'x-request-id': 'abcd1234-client' }), false);
    expect(id).not.toBe('abcd1234-client');
  });
});

describe('the line logged for an answer', () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const original = { ...console };
  routeConsoleToLog(createLogger({ level: 'info' }, stream));
  afterAll(() => Object.assign(console, original));

  it('names the path but never the query string, which carries tokens', () => {
    logAnswer(
      req('/account/reset-password?token=secret-reset-token'),
      200,
      performance.now(),
      'r-1',
    );
    logAnswer(req('/media/protected/a.mp3?sig=abc&exp=1'), 500, performance.now(), 'r-2');
    expect(lines.map((l) => [l.path, l.status, l.level, l.requestId])).toEqual([
      ['/account/reset-password', 200, 'info', 'r-1'],
      ['/media/protected/a.mp3', 500, 'error', 'r-2'],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret-reset-token|sig=abc/);
  });
});
