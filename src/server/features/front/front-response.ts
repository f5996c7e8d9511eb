import 'server-only';
import http, { type IncomingMessage, ServerResponse } from 'node:http';
import { type GivenPolicy, policyAtHead } from './csp';
import type { OutageGuard } from './db-outage';
import { privateHead } from './gift-answer';
import type { PageCopy } from './page-cache';

type Callback = (error?: Error | null) => void;
/** Node's own method, called with the arguments a handler gave, whichever form they take. */
type Untyped<R> = (...args: unknown[]) => R;

/**
 * The front server's response (http.createServer's `ServerResponse` option): Node's own, which
 * also does what the pipeline (pipeline.ts) decided for an answer before its handler writes it.
 * The framework writes its answers through Node's methods; what must happen as it writes is done
 * here, in this order, and nowhere else (no module replaces a response's methods).
 *
 * As the head is written (writeHead, which the first write or end calls when the handler did not):
 * 1. `pagePolicy`: the policy a render was given is fitted to what its answer turned out to be
 *    (csp.ts);
 * 2. `forOneReader`: a gift link's answer is marked its reader's alone (gift-answer.ts);
 * 3. `outage`: a 500 while the database is down becomes the outage's 503, its head and body in
 *    place of the handler's (db-outage.ts);
 * 4. `pageStatus`: a page sent with another status than the framework's 200 (page-requests.ts);
 * 5. always: a request whose body is still arriving closes its connection after the answer, so
 *    that the rest of a body a handler refused half-read (413) is never read, and a kept-alive
 *    client's next request is not left waiting behind it (Go's server does the same).
 *
 * As the body is written, `copy` keeps a copy of it for the page cache, and gets the response
 * once it ended (page-cache.ts).
 */
export class FrontResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  pagePolicy: GivenPolicy | null = null;
  forOneReader = false;
  outage: OutageGuard | null = null;
  copy: PageCopy | null = null;
  /** A page's status in place of 200: a page cannot set its own (page-requests.ts). */
  pageStatus: number | null = null;
  /** The outage's 503 written in place of the handler's answer: its body, sent once. */
  private replacement: { body: string | undefined } | null = null;

  override writeHead(status: number, ...rest: unknown[]): this {
    if (this.replacement) return this; // the 503's head is out; the handler's is dropped
    if (this.pagePolicy) policyAtHead(this.pagePolicy, this, status, rest);
    const args = this.forOneReader ? privateHead(this, rest) : rest;
    if (this.outage && status === 500 && !this.headersSent && !this.outage.available()) {
      for (const name of this.getHeaderNames())
        if (!this.outage.kept.has(name)) this.removeHeader(name);
      const answer = this.outage.answer();
      this.replacement = { body: answer.body };
      return this.sendHead(503, [answer.headers]);
    }
    return this.sendHead(
      status === 200 && this.pageStatus !== null ? this.pageStatus : status,
      args,
    );
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    this.copy?.keep(chunk, rest[0]);
    if (!this.replaced()) return (super.write as Untyped<boolean>)(chunk, ...rest);
    const callback = rest.find((arg): arg is Callback => typeof arg === 'function');
    if (callback) process.nextTick(callback);
    return true;
  }

  override end(...args: unknown[]): this {
    if (typeof args[0] !== 'function') this.copy?.keep(args[0], args[1]);
    if (!this.replaced()) (super.end as Untyped<this>)(...args);
    else {
      const callback = args.find((arg): arg is Callback => typeof arg === 'function');
      // A second end with a body would be an error event on the response: the body goes once.
      const body = this.replacement!.body;
      this.replacement!.body = undefined;
      (super.end as Untyped<this>)(body, ...(callback ? [callback] : []));
    }
    const copy = this.copy;
    this.copy = null;
    copy?.ended(this);
    return this;
  }

  /** Whether the outage's 503 stands in for the handler's answer (written now if it is due). */
  private replaced(): boolean {
    const due =
      !this.replacement &&
      this.outage &&
      this.statusCode === 500 &&
      !this.headersSent &&
      !this.outage.available();
    if (due) this.writeHead(500);
    return this.replacement !== null;
  }

  private sendHead(status: number, args: unknown[]): this {
    if (!this.req.complete) this.shouldKeepAlive = false;
    (super.writeHead as Untyped<this>)(status, ...args);
    return this;
  }
}

/** An http server whose answers are FrontResponses (the front server's, and tests'). */
export function createFrontServer(
  listener?: (req: IncomingMessage, res: FrontResponse) => void,
): http.Server<typeof IncomingMessage, typeof FrontResponse> {
  const server = http.createServer<typeof IncomingMessage, typeof FrontResponse>({
    ServerResponse: FrontResponse,
  });
  if (listener) server.on('request', listener);
  return server;
}
