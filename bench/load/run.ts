/** Runs the classes of the mix at once and counts each apart. */
import autocannon from 'autocannon';
import { type LoadClass, share } from './mix';

export type ClassResult = {
  name: string;
  connections: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Socket errors and timeouts. */
  errors: number;
  timeouts: number;
  /** Answers outside 2xx: every class expects 2xx (its URLs are the ones the site answers). */
  unexpected: number;
  statuses: Record<string, number>;
};

const TIMEOUT_SECONDS = 10;

/** Latencies in tenths of a millisecond up to the timeout: exact percentiles over any run. */
export class Latencies {
  private readonly counts = new Uint32Array(TIMEOUT_SECONDS * 10_000 + 1);
  private total = 0;
  add(ms: number): void {
    this.counts[Math.min(this.counts.length - 1, Math.round(ms * 10))]! += 1;
    this.total++;
  }
  percentile(p: number): number {
    let seen = 0;
    const rank = Math.ceil((p / 100) * this.total);
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank && seen > 0) return i / 10;
    }
    return 0;
  }
}

function runOne(base: string, c: LoadClass, connections: number, seconds: number, all: Latencies) {
  const latencies = new Latencies();
  return new Promise<ClassResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        timeout: TIMEOUT_SECONDS,
        requests: c.requests,
        ...(c.overallRate ? { overallRate: c.overallRate } : {}),
      },
      (error, result) => {
        if (error) return reject(error as Error);
        const statuses: Record<string, number> = {};
        for (const [status, { count = 0 }] of Object.entries(result.statusCodeStats ?? {}))
          statuses[status] = count;
        const answered = Object.values(statuses).reduce((n, v) => n + v, 0);
        resolve({
          name: c.name,
          connections,
          requests: answered,
          perSecond: answered / result.duration,
          p50: latencies.percentile(50),
          p99: latencies.percentile(99),
          errors: result.errors - result.timeouts,
          timeouts: result.timeouts,
          unexpected: answered - result['2xx'],
          statuses,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms: number) => {
      latencies.add(ms);
      all.add(ms);
    });
  });
}

/** All classes at once for `seconds`, `total` connections shared by weight. */
export async function runMix(
  base: string,
  classes: LoadClass[],
  total: number,
  seconds: number,
): Promise<{ classes: ClassResult[]; all: Latencies }> {
  const connections = share(classes, total);
  const all = new Latencies();
  return {
    classes: await Promise.all(
      classes.map((c, i) => runOne(base, c, connections[i]!, seconds, all)),
    ),
    all,
  };
}

/** Each request of each class once, in order: a wrong URL or header fails here, not under load. */
export async function preflight(base: string, classes: LoadClass[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of classes) {
    const context: Record<string, unknown> = {};
    for (const template of c.requests) {
      const request =
        typeof template.setupRequest === 'function'
          ? template.setupRequest({ ...template }, context)
          : template;
      if (!request) continue;
      const response = await fetch(new URL(request.path ?? '/', base), {
        method: request.method ?? 'GET',
        headers: request.headers as Record<string, string>,
        body: request.body as string | undefined,
        redirect: 'manual',
      });
      const body = await response.text();
      if (typeof template.onResponse === 'function')
        template.onResponse(response.status, body, context, {});
      if (response.status < 200 || response.status > 299)
        problems.push(`${c.name}: ${request.method ?? 'GET'} ${request.path} → ${response.status}`);
    }
  }
  return problems;
}
