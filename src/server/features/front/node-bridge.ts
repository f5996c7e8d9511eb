import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** A Node request's headers as web Headers (a session lookup, a fetch API handler). */
export function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** A Node request as a web Request, for handlers written against the fetch API. */
export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = webHeaders(req);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Required by undici for a streamed body.
    ...(hasBody ? { duplex: 'half' } : {}),
  });
}

/** Writes a web Response to a Node response (bodies here are small: read whole). */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Writes a web Response to a Node response as it streams (a stored file: not read whole), with
 * the headers it has, its Content-Length included; a HEAD gets the headers alone.
 */
export async function streamWebResponse(
  response: Response,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  // A client that goes away ends the stream; the file's read stops with it.
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch(
    () => undefined,
  );
}
