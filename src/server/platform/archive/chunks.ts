import 'server-only';
import { createReadStream } from 'node:fs';

/** A file's bytes as a tar entry's body, one chunk at a time. */
export async function* fileChunks(file: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(file)) yield chunk as Buffer;
}

/** A web stream's bytes (the storage's reads) as a tar entry's body; cancelled if left early. */
export async function* webChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
