import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inRequest } from '@/server/platform/http/request-context';
import { createLogger, entryOf } from './logger';

/** A logger writing into an array of parsed lines. */
function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, logger: createLogger({ level }, stream) };
}

describe('the server log', () => {
  it('writes one JSON object per line with level, time and message', () => {
    const { lines, logger } = capture();
    logger.info({ component: 'db' }, 'ready');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', component: 'db', msg: 'ready' });
    expect(new Date(lines[0]!.time as string).toString()).not.toBe('Invalid Date');
  });

  it('names the request a line was written for, and only inside it', async () => {
    const { lines, logger } = capture();
    await inRequest({ requestId: 'req-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('slow');
    });
    logger.warn('outside');
    expect(lines.map((l) => l.requestId)).toEqual(['req-1', undefined]);
  });

  it('censors passwords, tokens, keys and cookies in logged objects', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'Kumo-Sora-2026!',
        body: { token: 'tok_123', email: 'a@example.jp' },
        headers: { authorization: 'Bearer abc', cookie: 's=1', 'x-microcms-api-key': 'k' },
      },
      'request',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['Kumo-Sora-2026!', 'tok_123', 'Bearer abc', 's=1', '"k"']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('a@example.jp');
  });

  it('drops lines below its level', () => {
    const { lines, logger } = capture('warn');
    logger.info('chatty');
    logger.error('broken');
    expect(lines.map((l) => l.msg)).toEqual(['broken']);
  });
});

describe('a console call as a log entry', () => {
  it('takes a leading [tag] as the component and formats the rest like console.log', () => {
    expect(entryOf(['[cms] rate-limit sweep failed:', 3, { a: 1 }])).toEqual({
      component: 'cms',
      msg: 'rate-limit sweep failed: 3 { a: 1 }',
    });
    expect(entryOf(['no tag here'])).toEqual({ msg: 'no tag here' });
  });

  it('keeps an Error whole (for its stack) and out of the message', () => {
    const error = new Error('connection refused');
    const entry = entryOf(['[db] query failed:', error]);
    expect(entry).toEqual({ component: 'db', err: error, msg: 'query failed:' });
    expect(entryOf([error]).msg).toBe('connection refused');
  });
});
