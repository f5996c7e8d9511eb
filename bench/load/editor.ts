/**
 * `--edit newest`: an editor working through this week's posts, one description a second, each
 * of the newest posts in turn, and after each edit the time until an anonymous visitor sees it.
 * Its own loop rather than an autocannon class: each edit's text is new, its answer is timed,
 * and after each accepted edit a probe reads the post's page as the anonymous readers of the mix
 * read it (plain HTTP, no cookie, no Accept-Encoding: the same cached page) every 50 ms until
 * the new text is there.
 */
import http from 'node:http';
import { type ClassResult, Latencies } from './run';

export type EditorReport = {
  row: ClassResult;
  /** Edits due in the run (its seconds × the rate). */
  due: number;
  /** Edits answered 2xx. */
  accepted: number;
  /** "Edit accepted → the anonymous page shows the new text", per accepted edit that showed. */
  visible: Latencies;
  shown: number;
  /** Accepted edits whose text no probe saw within PROBE_LIMIT_MS. */
  neverShown: number;
};

const PROBE_EVERY_MS = 50;
const PROBE_LIMIT_MS = 10_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function request(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(PROBE_LIMIT_MS, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Reads the anonymous page until `text` is on it: the ms since `acceptedAt`, or null. */
async function probe(base: string, id: string, text: string, acceptedAt: number) {
  while (performance.now() - acceptedAt < PROBE_LIMIT_MS) {
    const page = await request(base, 'GET', `/posts/${id}`, {}).catch(() => null);
    if (page?.status === 200 && page.text.includes(text)) return performance.now() - acceptedAt;
    await sleep(PROBE_EVERY_MS);
  }
  return null;
}

/**
 * Edits `ids` in turn, `rate` a second for `seconds`, one at a time (an editor waits for the
 * save before the next): an edit that falls behind is sent as soon as the last one answered.
 */
export async function runEditor(
  base: string,
  options: { ids: string[]; writeKey: string; rate: number; seconds: number; name: string },
): Promise<EditorReport> {
  const { ids, writeKey, rate, seconds } = options;
  const latencies = new Latencies();
  const visible = new Latencies();
  const statuses: Record<string, number> = {};
  const probes: Promise<void>[] = [];
  const run = Math.random().toString(36).slice(2, 8);
  const started = performance.now();
  const due = Math.floor(seconds * rate);
  let errors = 0;
  let accepted = 0;
  let shown = 0;
  let neverShown = 0;
  for (let i = 0; i < due; i++) {
    await sleep(started + (i * 1000) / rate - performance.now());
    if (performance.now() - started >= seconds * 1000) break;
    const id = ids[i % ids.length]!;
    const text = `負荷試験で書き換えた概要 ${run}-${i}`;
    const sentAt = performance.now();
    const answer = await request(
      base,
      'PATCH',
      `/api/v1/posts/${id}`,
      { 'x-microcms-api-key': writeKey, 'content-type': 'application/json' },
      JSON.stringify({ description: text }),
    ).catch(() => null);
    const acceptedAt = performance.now();
    latencies.add(acceptedAt - sentAt);
    if (!answer) {
      errors++;
      continue;
    }
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.status < 200 || answer.status > 299) continue;
    accepted++;
    probes.push(
      probe(base, id, text, acceptedAt).then((ms) => {
        if (ms === null) neverShown++;
        else {
          shown++;
          visible.add(ms);
        }
      }),
    );
  }
  await Promise.all(probes);
  const elapsed = (performance.now() - started) / 1000;
  const answered = Object.values(statuses).reduce((n, v) => n + v, 0);
  return {
    row: {
      name: options.name,
      connections: 1,
      requests: answered,
      perSecond: answered / Math.min(elapsed, seconds),
      p50: latencies.percentile(50),
      p99: latencies.percentile(99),
      errors,
      timeouts: 0,
      unexpected: answered - accepted,
      statuses,
    },
    due,
    accepted,
    visible,
    shown,
    neverShown,
  };
}
