import 'server-only';
import { singleton } from '@/lib/singleton';
import { type Dictionary, loadDictionary, tokenize } from './ipadic';
import { readingDictionaryFile } from './reading-dictionary';
import { type Morpheme, type ReadingPair, readingPairs, scriptWords, wordsOf } from './words';

/**
 * Readings of kanji, so that a search in kana (うるし) finds the kanji (漆)
 * (docs/decisions/042-search-by-reading.md, 060-readings-in-the-server.md). The analyser is
 * IPADIC's lattice search in this process (ipadic.ts) over a compact dictionary file of about
 * 15 MB, loaded on the first paragraph to read and let go after the idle time. Each paragraph
 * read is kept (the store below), so a content write reads only the paragraphs it has not read
 * before. Only the indexing path asks for readings
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

/**
 * One analyser per process, however often this module is loaded: the framework bundles server
 * code apart from the front server, and the test runner loads the app's modules afresh for every
 * file (tests/support/fresh-file-state.ts), which clears the named singletons too. The state is
 * plain (the dictionary, a timer), so any copy of the module can use it.
 */
type Analyser = {
  dictionary: Dictionary | null;
  loading: Promise<Dictionary> | null;
  idleTimer: NodeJS.Timeout | null;
  /** Tests shorten the idle time (setReadingsIdleMs). */
  idleMs: number | null;
};
const holder = globalThis as typeof globalThis & { __axisReadingAnalyser?: Analyser };
const state: Analyser = (holder.__axisReadingAnalyser ??= {
  dictionary: null,
  loading: null,
  idleTimer: null,
  idleMs: null,
});

/** Reading a batch yields to the event loop after this long, so requests are not held up. */
const SLICE_MS = 8;

function dictionary(): Promise<Dictionary> {
  if (state.dictionary) return Promise.resolve(state.dictionary);
  state.loading ??= readingDictionaryFile()
    .then((file) => (state.dictionary = loadDictionary(file)))
    .finally(() => {
      state.loading = null;
    });
  return state.loading;
}

// While nothing is asked the dictionary is let go (about 20 MiB), and loaded again in ~20 ms.
function idle() {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => {
    state.dictionary = null;
    state.idleTimer = null;
  }, state.idleMs ?? IDLE_MS);
  state.idleTimer.unref();
}

/** The analyser's words of each text, read in this process in slices of the event loop. */
export async function analyse(texts: readonly string[]): Promise<Morpheme[][]> {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = null;
  try {
    const dict = await dictionary();
    const words: Morpheme[][] = [];
    let slice = performance.now();
    for (const text of texts) {
      words.push(tokenize(dict, text));
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    return words;
  } finally {
    idle();
  }
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

/** Lets the dictionary go now: a batch (the seeding, a benchmark) that is done with it. */
export function stopReadings(): void {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = null;
  state.dictionary = null;
}

/** Whether the dictionary is in memory (tests, benchmarks). */
export function analyserLoaded(): boolean {
  return state.dictionary !== null;
}

/** Tests shorten the idle time after which the dictionary is let go; null restores IDLE_MS. */
export function setReadingsIdleMs(ms: number | null): void {
  state.idleMs = ms;
}
