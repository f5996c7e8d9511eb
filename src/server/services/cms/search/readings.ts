import 'server-only';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type ChildProcess, spawn } from 'node:child_process';
import { type Morpheme, type ReadingPair, readingPairs, scriptWords, wordsOf } from './words';

/**
 * Readings of kanji, so that a search in kana (うるし) finds the kanji (漆)
 * (docs/decisions/042-search-by-reading.md). kuromoji's IPADIC dictionary ships in its npm
 * package, but loaded it takes about 380 MB and 2 s: it never lives in the server's own heap.
 * It runs in a child process started on the first text to read and ended after IDLE_MS without
 * work, so its memory goes back whole (a worker thread shares the server's process: measured,
 * about 64 MiB of its 310 stayed resident after it ended); only the indexing path asks for readings (a query is never
 * analysed: a kana query is matched against the stored readings as it is).
 */

const IDLE_MS = 10_000;
const HAN = /\p{sc=Han}/u;
const KANA = /^[\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u;
/** Katakana letters (ァ..ヶ) sit 0x60 code points above their hiragana. */
const KATAKANA_LETTER = /[\u30a1-\u30f6]/gu;

const toHiragana = (kana: string) =>
  kana.replace(KATAKANA_LETTER, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));

/**
 * The reading of a text in hiragana, from its words: a word with kanji is replaced by its
 * reading, kana is kept, anything else (Latin, digits, punctuation, a kanji word the dictionary
 * does not know) breaks the reading with a space, so that no query matches across it.
 * '' when the text has no kanji: its kana is already in the index.
 */
export function readingOf(words: readonly Morpheme[]): string {
  if (!words.some((word) => HAN.test(word.surface))) return '';
  const parts = words.map((word) => {
    if (HAN.test(word.surface)) return word.reading && KANA.test(word.reading) ? word.reading : ' ';
    return KANA.test(word.surface) ? word.surface : ' ';
  });
  return toHiragana(parts.join('')).replace(/\s+/gu, ' ').trim();
}

// The child runs plain JavaScript from this string: a bundler never sees it, and
// kuromoji is loaded from node_modules by the path the server resolves.
const WORKER_SOURCE = `
const [modulePath, dicPath] = process.argv.slice(-2);
const kuromoji = require(modulePath);
const ready = new Promise((resolve, reject) =>
  kuromoji.builder({ dicPath }).build((error, tokenizer) =>
    error ? reject(error) : resolve(tokenizer)));
process.on('disconnect', () => process.exit(0));
process.on('message', ({ id, texts }) => {
  ready.then(
    (tokenizer) => process.send({ id, words: texts.map((text) =>
      tokenizer.tokenize(text).map((t) => [t.surface_form, t.reading || null])) }),
    (error) => process.send({ id, error: String(error) }),
  );
});
`;

/**
 * The server's own memory settings (scripts/server-process.mjs): the dictionary's build leaves
 * garbage a default heap would keep. Measured on the child after loading and tokenising:
 * 414 MiB resident with Node's defaults, 355 with these (docs/decisions/043-memory.md).
 */
const WORKER_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=45'];

type Pending = { resolve: (words: Morpheme[][]) => void; reject: (error: Error) => void };
type Answer = { id: number; words?: [string, string | null][][]; error?: string };
type Analyser = {
  worker: ChildProcess | null;
  idleTimer: NodeJS.Timeout | null;
  nextId: number;
  pending: Map<number, Pending>;
};

/**
 * One analyser per process, however often this module is loaded: the framework bundles server
 * code apart from the front server, and the test runner loads the app's modules afresh for every
 * file (tests/support/fresh-file-state.ts), which clears the named singletons too. With the state
 * in the module each load started its own child: measured, an integration run started about 150,
 * each loading the 2 s dictionary again. The state is plain (a child, a timer, pending answers),
 * so any copy of the module can use it.
 */
const holder = globalThis as typeof globalThis & { __axisReadings?: Analyser };
const state: Analyser = (holder.__axisReadings ??= {
  worker: null,
  idleTimer: null,
  nextId: 0,
  pending: new Map<number, Pending>(),
});
const { pending } = state;

function stop(target: ChildProcess) {
  if (state.worker === target) state.worker = null;
  target.kill();
}

function failAll(error: Error) {
  for (const request of pending.values()) request.reject(error);
  pending.clear();
}

function startWorker(): ChildProcess {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const modulePath = require.resolve('kuromoji');
  const dicPath = path.join(path.dirname(modulePath), '..', 'dict');
  const started = spawn(
    process.execPath,
    [...WORKER_NODE_FLAGS, '-e', WORKER_SOURCE, modulePath, dicPath],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  started.on('message', (answer: Answer) => {
    const request = pending.get(answer.id);
    if (!request) return;
    pending.delete(answer.id);
    if (answer.error !== undefined) request.reject(new Error(answer.error));
    else
      request.resolve(
        (answer.words ?? []).map((words) =>
          words.map(([surface, reading]) => ({ surface, reading })),
        ),
      );
    if (pending.size === 0) idle(started);
  });
  started.on('error', (error) => {
    stop(started);
    failAll(error);
  });
  started.on('exit', () => {
    if (state.worker === started) state.worker = null;
    failAll(new Error('the reading analyser stopped'));
  });
  return started;
}

function setRef(target: ChildProcess, busy: boolean) {
  const channel = target.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    target.ref();
    channel?.ref();
  } else {
    target.unref();
    channel?.unref();
  }
}

// While nothing is asked the worker neither keeps the process alive nor holds its memory long.
function idle(target: ChildProcess) {
  setRef(target, false);
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => stop(target), IDLE_MS);
  state.idleTimer.unref();
}

/** The analyser's words of each text, from the worker (started when needed). */
export function analyse(texts: readonly string[]): Promise<Morpheme[][]> {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = null;
  const target = (state.worker ??= startWorker());
  setRef(target, true);
  const id = state.nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    target.send({ id, texts });
  });
}

/** What the index keeps of a text's analysis (search-index.ts). */
export type TextAnalysis = {
  /** The reading in hiragana ('' for a text without kanji: its kana is already in the index). */
  reading: string;
  /** Its whole words, folded as a query term is (words.ts). */
  words: string[];
  /** How its kanji read (words.ts), for marking what a kana term found. */
  pairs: ReadingPair[];
};

/** What a text gives the index without the analyser: its script runs as words, no reading. */
export const unanalysed = (text: string): TextAnalysis => ({
  reading: '',
  words: scriptWords(text),
  pairs: [],
});

/**
 * The analysis of each text; a text without kanji needs no analyser: its words are its script
 * runs, and it has no reading to add. If the analyser fails the texts are indexed so too
 * (logged): a content write never fails for want of readings.
 */
export async function analyseTexts(texts: readonly string[]): Promise<TextAnalysis[]> {
  const analyses = texts.map(unanalysed);
  const todo = texts.map((text, index) => ({ text, index })).filter((t) => HAN.test(t.text));
  if (todo.length === 0) return analyses;
  try {
    const words = await analyse(todo.map((t) => t.text));
    todo.forEach((t, i) => {
      const read = words[i] ?? [];
      analyses[t.index] = {
        reading: readingOf(read),
        words: wordsOf(read),
        pairs: readingPairs(read),
      };
    });
  } catch (error) {
    console.error('[search] readings not indexed:', error);
  }
  return analyses;
}

/** Ends the worker now (tests and scripts that must not wait for the idle timer). */
export function stopReadings(): void {
  if (state.worker) stop(state.worker);
}
