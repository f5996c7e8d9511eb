import { createHash } from 'node:crypto';
import { generateRequest, KINDS, type FuzzContext } from './generate';
import { processGroupOf, rssOfKb } from './memory';
import { createRng } from './prng';
import { parseStatusLine } from './send';
import { unexplainedChanges } from './tables';

describe('unexplainedChanges', () => {
  const before = { bookmarks: 3, contact_messages: 1, cms_contents: 40 };

  it('flags a guarded table that changed with no accepted write on a route that writes it', () => {
    const after = { ...before, contact_messages: 2 };
    expect(
      unexplainedChanges(before, after, [{ method: 'POST', path: '/api/bookmarks', status: 201 }]),
    ).toEqual([{ table: 'contact_messages', before: 1, after: 2 }]);
  });

  it('accepts a change that an accepted write explains, and no change at all', () => {
    const after = { ...before, bookmarks: 4 };
    expect(
      unexplainedChanges(before, after, [{ method: 'POST', path: '/api/bookmarks', status: 201 }]),
    ).toEqual([]);
    expect(unexplainedChanges(before, before, [])).toEqual([]);
  });
});

describe('status and memory parsing', () => {
  it('reads the status of a raw answer, and none from garbage', () => {
    expect(parseStatusLine('HTTP/1.1 400 Bad Request\r\n')).toBe(400);
    expect(parseStatusLine('HTTP/1.0 502 x')).toBe(502);
    expect(parseStatusLine('\x15\x03\x01')).toBeNull();
  });

  it('reads the process group and RSS from /proc, names with spaces and parentheses included', () => {
    expect(processGroupOf('1234 (node (x) y) S 1 4321 4321 0 -1')).toBe(4321);
    expect(rssOfKb('Name:\tnode\nVmRSS:\t  123456 kB\n')).toBe(123456);
  });
});

describe('generateRequest', () => {
  const ctx: FuzzContext = {
    routes: [
      { template: '/posts/[contentId]', kind: 'page', methods: ['GET'] },
      { template: '/api/bookmarks', kind: 'handler', methods: ['POST'] },
    ],
    forms: [{ action: '/api/contact', fields: ['email', 'message'] }],
    endpoints: [{ endpoint: 'posts', list: true, fields: ['title'] }],
    ids: { posts: ['p1'] },
    targetUserId: 'u1',
    origin: 'http://localhost:3000',
    host: '127.0.0.1:1',
    hugeBytes: 64 * 1024,
    jsonDepth: 100,
  };
  /** A digest of 300 requests (comparing the bodies byte by byte in expect is slow). */
  const run = (seed: number) => {
    const rng = createRng(seed);
    const hash = createHash('sha256');
    for (let i = 0; i < 300; i++) {
      const { body, raw, ...rest } = generateRequest(rng, ctx, rng.pick(KINDS));
      hash
        .update(JSON.stringify(rest))
        .update(body ?? '')
        .update(raw ?? '');
    }
    return hash.digest('hex');
  };

  it('is reproducible from its seed, huge bodies and raw requests included', () => {
    expect(run(5)).toBe(run(5));
    expect(run(5)).not.toBe(run(6));
  });

  it('never sends the run’s own session to sign-out', () => {
    const rng = createRng(9);
    const signOut: FuzzContext = {
      ...ctx,
      forms: [{ action: '/api/account/sign-out', fields: [] }],
    };
    let signOuts = 0;
    for (let i = 0; i < 200; i++) {
      const request = generateRequest(rng, signOut, 'form-fields');
      if (request.path.startsWith('/api/account/sign-out')) {
        signOuts++;
        expect(request.identity).toBe('anonymous');
      }
    }
    expect(signOuts).toBeGreaterThan(50);
  });
});
