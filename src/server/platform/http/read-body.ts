import 'server-only';

/**
 * The front server's limit for receiving a whole request, headers and body (http.Server's
 * requestTimeout, src/server/features/front/server.ts): past it Node answers 408 and drops the
 * connection, whatever the handler was doing.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/**
 * How long a body may send nothing before its reader gives up (a 400 in words the client can
 * read): well inside REQUEST_TIMEOUT_MS, so a client that stops mid-body hears why, and its
 * handler (an upload's temporary file) is not held until the server drops the connection.
 */
export const BODY_IDLE_MS = 30_000;

/** The next chunk of a body, or 'stalled' when none comes within BODY_IDLE_MS. */
export async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array> | 'stalled'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => resolve('stalled'), BODY_IDLE_MS);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reading a request body with a ceiling. `request.text()` / `formData()` hold the whole body
 * before anyone can look at its size, and Content-Length may be absent (chunked) or lie, so the
 * bytes are counted as they arrive and reading stops at the first byte past the limit, or
 * when the body stops arriving (400).
 */

export type BodyBytes =
  { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; status: 400 | 413 };

export async function readBodyBytes(request: Request, maxBytes: number): Promise<BodyBytes> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, status: 413 };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await readWithin(reader);
      if (next === 'stalled') {
        await reader.cancel().catch(() => undefined);
        return { ok: false, status: 400 };
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stops the upload instead of draining it.
        await reader.cancel().catch(() => undefined);
        return { ok: false, status: 413 };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400 }; // the client went away or sent a broken stream
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Whether JSON text nests arrays/objects deeper than maxDepth. JSON.parse copes with any depth,
 * but every recursive walk over the value afterwards (validators, sanitisers, JSON.stringify)
 * overflows the stack on `[[[[…` 100,000 deep, so such a body is refused before it is parsed.
 */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

/** JSON bytes → value; invalid UTF-8, invalid JSON and deep nesting are refused. */
export function parseJsonBytes(bytes: Uint8Array, maxDepth: number): ParsedJson {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false };
  }
  return parseJsonText(text, maxDepth);
}

export function parseJsonText(text: string, maxDepth: number): ParsedJson {
  if (jsonNestsDeeperThan(text, maxDepth)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
