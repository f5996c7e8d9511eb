/** Test helpers: request bodies that stream, and how much of them a reader pulled. */

export type CountedStream = { stream: ReadableStream<Uint8Array>; pulled: () => number };

/**
 * `total` bytes (Infinity: endless) in chunks of `chunk`, starting with `head`. Counts what is
 * pulled, which is how a test proves a reader stopped early.
 */
export function countedStream(
  options: { head?: string; total?: number; chunk?: number; fill?: number } = {},
): CountedStream {
  const chunk = options.chunk ?? 64 * 1024;
  const total = options.total ?? Infinity;
  let pulled = 0;
  let head: Uint8Array | null = options.head ? new TextEncoder().encode(options.head) : null;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const next =
        head ?? new Uint8Array(Math.min(chunk, total - pulled)).fill(options.fill ?? 0x61);
      head = null;
      pulled += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, pulled: () => pulled };
}

/** A POST whose body streams without Content-Length (chunked transfer encoding). */
export function streamedPost(
  url: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
): Request {
  return new Request(url, {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A body that sends `head` and then fails, as a request's body does when the client goes away. */
export function droppedStream(head: string | Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error('socket closed'));
      sent = true;
      controller.enqueue(typeof head === 'string' ? new TextEncoder().encode(head) : head);
    },
  });
}
