import 'server-only';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type ChildProcess, spawn } from 'node:child_process';
import { singleton } from '@/lib/singleton';
import { type Morpheme, type ReadingPair, readingPairs, scriptWords, wordsOf } from './words';

/**
 * Readings of kanji, so that a search in kana (うるし) finds the kanji (漆)
 * (docs/decisions/042-search-by-reading.md, 048-lindera-readings.md). The analyser is Lindera's
 * WebAssembly build with IPADIC embedded (npm `lindera-wasm-nodejs-ipadic`): loaded, about
 * 130 MiB more than a bare Node. It never lives in the server's own memory: it runs in a child
 * process started on the first paragraph to read and ended after the idle time, so its memory
 * goes back whole. Each paragraph read is kept (the store below), so a content write sends the
 * analyser only the paragraphs it has not read before. Only the indexing path asks for readings
 * (a query is never analysed: a kana query is matched against the stored readings as it is).
 */

const IDLE_MS = 10_000;
const HAN = /\p{sc=Han}/u;
const KANA = /^[\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u;
/** What the analyser reads: a paragraph with Japanese script (the rest are script runs). */
const JAPANESE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
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

// The child runs plain JavaScript from this string: a bundler never sees it, and the analyser
// is loaded from node_modules by the path the server resolves. Building the tokenizer (about
// 0.6 s) blocks the child's loop: messages sent meanwhile wait for it.
const WORKER_SOURCE = `
const [modulePath] = process.argv.slice(-1);
let tokenizer, failure;
try {
  const { TokenizerBuilder } = require(modulePath);
  const builder = new TokenizerBuilder();
  builder.setDictionary('embedded://ipadic');
  builder.setMode('normal');
  tokenizer = builder.build();
} catch (error) {
  failure = String(error);
}
process.on('disconnect', () => process.exit(0));
process.on('message', ({ id, texts }) => {
  if (failure) return process.send({ id, error: failure });
  try {
    process.send({ id, words: texts.map((text) => tokenizer.tokenize(text).map((t) =>
      [t.surface, t.reading && t.reading !== '*' ? t.reading : null])) });
  } catch (error) {
    process.send({ id, error: String(error) });
  }
});
`;

/**
 * The server's own memory settings (scripts/server-process.mjs): V8's young generation and the
 * old generation's growth kept small, as in the server (docs/decisions/043-memory.md). Liftoff
 * only: the WebAssembly is compiled once, by the baseline compiler, and not again by the
 * optimising one for hot functions; measured, 179 MiB at the peak instead of 205, the same time.
 */
const WORKER_NODE_FLAGS = [
  '--max-semi-space-size=2',
  '--heap-growing-percent=45',
  '--liftoff-only',
];

type Pending = { resolve: (words: Morpheme[][]) => void; reject: (error: Error) => void };
type Answer = { id: number; words?: [string, string | null][][]; error?: string };
/**
 * A child and the requests sent to it: its exit fails its own requests, never a later child's.
 * `ending`: asked to stop while it read (stopReadings), it ends on its last answer.
 */
type Worker = { child: ChildProcess; pending: Map<number, Pending>; ending: boolean };
type Analyser = {
  worker: Worker | null;
  idleTimer: NodeJS.Timeout | null;
  nextId: number;
  /** Tests shorten the idle time (setReadingsIdleMs). */
  idleMs: number | null;
};

/**
 * One analyser per process, however often this module is loaded: the framework bundles server
 * code apart from the front server, and the test runner loads the app's modules afresh for every
 * file (tests/support/fresh-file-state.ts), which clears the named singletons too. With the state
 * in the module each load started its own child: measured, an integration run started about 150,
 * each loading its dictionary again. The state is plain (a child, a timer, pending answers),
 * so any copy of the module can use it.
 */
const holder = globalThis as typeof globalThis & { __axisReadingAnalyser?: Analyser };
const state: Analyser = (holder.__axisReadingAnalyser ??= {
  worker: null,
  idleTimer: null,
  nextId: 0,
  idleMs: null,
});

function stop(target: Worker) {
  if (state.worker === target) state.worker = null;
  target.child.kill();
}

function failAll(target: Worker, error: Error) {
  for (const request of target.pending.values()) request.reject(error);
  target.pending.clear();
}

function startWorker(): Worker {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const modulePath = require.resolve('lindera-wasm-nodejs-ipadic');
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, '-e', WORKER_SOURCE, modulePath], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started: Worker = { child, pending: new Map(), ending: false };
  child.on('message', (answer: Answer) => {
    const request = started.pending.get(answer.id);
    if (!request) return;
    started.pending.delete(answer.id);
    if (answer.error !== undefined) request.reject(new Error(answer.error));
    else
      request.resolve(
        (answer.words ?? []).map((words) =>
          words.map(([surface, reading]) => ({ surface, reading })),
        ),
      );
    if (started.pending.size === 0) {
      if (started.ending) stop(started);
      else idle(started);
    }
  });
  child.on('error', (error) => {
    stop(started);
    failAll(started, error);
  });
  child.on('exit', () => {
    if (state.worker === started) state.worker = null;
    failAll(started, new Error('the reading analyser stopped'));
  });
  return started;
}

function setRef(target: Worker, busy: boolean) {
  const channel = target.child.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    target.child.ref();
    channel?.ref();
  } else {
    target.child.unref();
    channel?.unref();
  }
}

// While nothing is asked the worker neither keeps the process alive nor holds its memory long.
function idle(target: Worker) {
  setRef(target, false);
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => stop(target), state.idleMs ?? IDLE_MS);
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
    target.pending.set(id, { resolve, reject });
    target.child.send({ id, texts });
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
 * Paragraphs (runs between whitespace: the index's text puts a space between blocks) already
 * read, with the analyser's words, most recently used last. A write indexes the whole item again
 * (title, description, body) though an edit changes one part of it: only what the analyser has
 * not read goes to it, and a write that changes no paragraph with Japanese text does not start
 * it. A paragraph is read alone, as the whole text was: a space breaks the reading anyway.
 * Kept in the server's memory, about STORE_CHARS characters of paragraphs and words (a
 * few MiB); a restart forgets them, which costs one reading of a paragraph written again.
 */
const STORE_CHARS = 500_000;
type Store = { paragraphs: Map<string, string>; chars: number };
const store = singleton<Store>('search-reading-store', () => ({ paragraphs: new Map(), chars: 0 }));

// Words as `surface<TAB>reading` lines: a paragraph holds no whitespace, a reading is kana.
const encode = (words: readonly Morpheme[]) =>
  words.map((word) => `${word.surface}\t${word.reading ?? ''}`).join('\n');
const decode = (stored: string): Morpheme[] =>
  stored === ''
    ? []
    : stored.split('\n').map((line) => {
        const tab = line.indexOf('\t');
        return { surface: line.slice(0, tab), reading: line.slice(tab + 1) || null };
      });

function recall(paragraph: string): Morpheme[] | undefined {
  const stored = store.paragraphs.get(paragraph);
  if (stored === undefined) return undefined;
  store.paragraphs.delete(paragraph);
  store.paragraphs.set(paragraph, stored);
  return decode(stored);
}

function keep(paragraph: string, words: readonly Morpheme[]) {
  if (store.paragraphs.has(paragraph)) return;
  const stored = encode(words);
  store.paragraphs.set(paragraph, stored);
  store.chars += paragraph.length + stored.length;
  for (const [oldest, value] of store.paragraphs) {
    if (store.chars <= STORE_CHARS) break;
    store.paragraphs.delete(oldest);
    store.chars -= oldest.length + value.length;
  }
}

const SPACE: Morpheme = { surface: ' ', reading: null };
/** A paragraph without Japanese script (Latin, digits) needs no analyser: its script runs. */
const runsOf = (paragraph: string): Morpheme[] =>
  scriptWords(paragraph).map((surface) => ({ surface, reading: null }));

/**
 * The analysis of each text; a text without kanji needs no analyser: its words are its script
 * runs, and it has no reading to add. A text with kanji is read paragraph by paragraph, each
 * paragraph once (the store above). If the analyser fails the texts are indexed without
 * readings (logged): a content write never fails for want of readings.
 */
export async function analyseTexts(texts: readonly string[]): Promise<TextAnalysis[]> {
  const analyses = texts.map(unanalysed);
  const todo = texts.flatMap((text, index) =>
    HAN.test(text) ? [{ index, paragraphs: text.match(/\S+/gu) ?? [] }] : [],
  );
  if (todo.length === 0) return analyses;
  const known = new Map<string, Morpheme[]>();
  const missing = new Set<string>();
  for (const { paragraphs } of todo)
    for (const paragraph of paragraphs) {
      if (!JAPANESE.test(paragraph) || known.has(paragraph)) continue;
      const words = recall(paragraph);
      if (words) known.set(paragraph, words);
      else missing.add(paragraph);
    }
  try {
    if (missing.size > 0) {
      const asked = [...missing];
      const read = await analyse(asked);
      asked.forEach((paragraph, i) => {
        known.set(paragraph, read[i] ?? []);
        keep(paragraph, read[i] ?? []);
      });
    }
    for (const { index, paragraphs } of todo) {
      const read = paragraphs.flatMap((paragraph, i) => [
        ...(i > 0 ? [SPACE] : []),
        ...(known.get(paragraph) ?? runsOf(paragraph)),
      ]);
      analyses[index] = {
        reading: readingOf(read),
        words: wordsOf(read),
        pairs: readingPairs(read),
      };
    }
  } catch (error) {
    console.error('[search] readings not indexed:', error);
  }
  return analyses;
}

/**
 * Ends the worker now, or once it has answered what it is reading: a batch (the seeding, a
 * benchmark, a test file) that is done with it need not wait for the idle timer.
 */
export function stopReadings(): void {
  const target = state.worker;
  if (!target) return;
  if (target.pending.size === 0) {
    if (state.idleTimer) clearTimeout(state.idleTimer);
    state.idleTimer = null;
    return stop(target);
  }
  target.ending = true;
  // What comes after this call goes to a new child.
  state.worker = null;
}

/** The analyser child's process id while it runs, else null (tests, benchmarks). */
export function analyserPid(): number | null {
  return state.worker?.child.pid ?? null;
}

/** Resolves once the analyser child now running (if any) has exited (tests). */
export function analyserStopped(): Promise<void> {
  const target = state.worker;
  if (!target || target.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => target.child.once('exit', () => resolve()));
}

/** Tests shorten the idle time after which the child ends; null restores IDLE_MS. */
export function setReadingsIdleMs(ms: number | null): void {
  state.idleMs = ms;
}
