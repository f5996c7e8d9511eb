/**
 * Sends a fuzz request: through node:http with a keep-alive agent when node can send it as it
 * is, on a raw socket otherwise (odd methods, CR/LF or NUL in a header, broken request lines).
 * Never throws: a connection the server drops or a request it never answers is an outcome.
 */
import http from 'node:http';
import net from 'node:net';
import type { FuzzRequest } from './generate';

export type Outcome = {
  /** The HTTP status, or why there was none. */
  status: number | 'closed' | 'timeout';
  /** The start of the answer's body (for failures). */
  excerpt: string;
};

const EXCERPT = 300;

/** The start of a raw answer's body, as the UTF-8 it is. */
const bodyText = (received: Buffer, headEnd: number): string =>
  received.subarray(headEnd + 4, headEnd + 4 + EXCERPT).toString('utf8');

export function parseStatusLine(head: string): number | null {
  const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head);
  return match ? Number(match[1]) : null;
}

export function sendRaw(port: number, bytes: Buffer, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (outcome: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ status: 'timeout', excerpt: '' }), timeoutMs);
    // No half-close after writing: Node's server drops a request whose client ended its side
    // (httpAllowHalfOpen is false), and a slow page would go unanswered. The requests say
    // `Connection: close`; a broken one is answered 400 and closed by Node itself.
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]).subarray(0, 64 * 1024);
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      // Wait for a little of the body: a 5xx needs its excerpt.
      if (headEnd >= 0 && (text.length > headEnd + 4 + EXCERPT || !text.startsWith('HTTP/1.1 5'))) {
        const status = parseStatusLine(text);
        finish({
          status: status ?? 'closed',
          excerpt: bodyText(received, headEnd),
        });
      }
    });
    const settle = () => {
      const text = received.toString('latin1');
      const status = parseStatusLine(text);
      const headEnd = text.indexOf('\r\n\r\n');
      finish({
        status: status ?? 'closed',
        excerpt: headEnd >= 0 ? bodyText(received, headEnd) : '',
      });
    };
    socket.on('end', settle);
    socket.on('close', settle);
    socket.on('error', settle);
  });
}

export function sendHttp(
  agent: http.Agent,
  port: number,
  request: FuzzRequest,
  headers: [string, string][],
  timeoutMs: number,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let req: http.ClientRequest;
    const timer = setTimeout(() => {
      finish({ status: 'timeout', excerpt: '' });
      req?.destroy();
    }, timeoutMs);
    try {
      req = http.request({
        agent,
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        // Raw header pairs (repeats kept); node then adds no Host of its own.
        headers: [['host', `127.0.0.1:${port}`], ...headers].flat(),
      });
    } catch {
      // node refused to send it (an invalid byte): send it as bytes.
      clearTimeout(timer);
      done = true;
      resolve(sendRaw(port, toRaw(request, headers, `127.0.0.1:${port}`), timeoutMs));
      return;
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () =>
        finish({
          status: res.statusCode ?? 'closed',
          excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT),
        }),
      );
      res.on('error', () => finish({ status: res.statusCode ?? 'closed', excerpt: '' }));
    });
    // No answer on this connection: a kept-alive socket the server closed meanwhile, or an
    // answer (413, a refusal) sent and the socket closed while the body was still being
    // written. Once more on a connection of its own, which reads whatever the server answers.
    req.on('error', () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(sendRaw(port, toRaw(request, headers, `127.0.0.1:${port}`), timeoutMs));
    });
    req.end(request.body);
  });
}

/** The request as bytes, for a raw socket. */
export function toRaw(request: FuzzRequest, headers: [string, string][], host: string): Buffer {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (request.body) lines.push(`Content-Length: ${request.body.length}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([
    Buffer.from(lines.join('\r\n'), 'latin1'),
    request.body ?? Buffer.alloc(0),
  ]);
}
