import 'server-only';
import type { TarEntry } from './tar';

/** A small entry (a manifest) as text; past `max` bytes, refused before it is read. */
export async function readEntryText(
  entry: TarEntry,
  max: number,
  fail: (message: string) => Error,
): Promise<string> {
  if (entry.size > max) throw fail(`${entry.path} が大きすぎます。`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of entry.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The lines of a JSON-lines entry, streamed, with their numbers (from 1; empty lines are
 * counted but not yielded). A line longer than `maxLineBytes` or bytes that are not UTF-8
 * stop it with `fail` (`utf8Suffix` ends that message: a backup adds what it means).
 */
export async function* entryLines(
  entry: TarEntry,
  options: { maxLineBytes: number; fail: (message: string) => Error; utf8Suffix?: string },
): AsyncGenerator<{ text: string; line: number }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 0;
  try {
    for await (const chunk of entry.body) {
      pending += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const text = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        line++;
        if (text !== '') yield { text, line };
      }
      if (pending.length > options.maxLineBytes)
        throw options.fail(`${entry.path} の ${line + 1} 行目が長すぎます。`);
    }
    pending += decoder.decode();
  } catch (error) {
    if (error instanceof TypeError)
      throw options.fail(
        `${entry.path} に UTF-8 でない文字があります。${options.utf8Suffix ?? ''}`,
      );
    throw error;
  }
  if (pending !== '') yield { text: pending, line: line + 1 };
}
