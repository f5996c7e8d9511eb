import 'server-only';
import fs from 'node:fs';
import type { Morpheme } from './words';

/**
 * IPADIC's morphological analysis in plain JavaScript over a compact file
 * (docs/decisions/060-readings-in-the-server.md): MeCab's lattice and Viterbi search with the
 * dictionary's own connection costs and unknown-word rules, so its words and readings are
 * IPADIC's as MeCab (and Lindera, which this replaces) gives them. The file, built by
 * scripts/build-ipadic.mjs, holds about 15 MB of typed arrays: the words' surfaces sorted in one
 * string (prefix search by narrowing a range), their costs, the readings of words with kanji,
 * the connection matrix and the character categories.
 */

type Category = { name: string; invoke: number; group: number; length: number };
type Header = {
  format: number;
  leftSize: number;
  rightSize: number;
  categories: Category[];
  unknown: [left: number, right: number, cost: number][][];
  sections: Record<string, { offset: number; length: number }>;
};

export type Dictionary = {
  keyText: string;
  keyOffsets: Int32Array;
  entryOffsets: Int32Array;
  left: Int16Array;
  right: Int16Array;
  cost: Int16Array;
  readingIndex: Int32Array;
  readingText: string;
  readingOffsets: Int32Array;
  matrix: Int16Array;
  rightSize: number;
  charDefault: Uint8Array;
  charTypes: Uint16Array;
  categories: Category[];
  unknown: Header['unknown'];
  space: number;
};

export const DICTIONARY_FORMAT = 1;
/** MeCab's default: a run of one category longer than this is not one unknown word. */
const MAX_GROUPING = 24;

export function loadDictionary(file: string): Dictionary {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as Header;
  if (header.format !== DICTIONARY_FORMAT)
    throw new Error(`reading dictionary: format ${header.format}`);
  const base = bytes.byteOffset + 4 + headerLength;
  const section = (name: string) => {
    const entry = header.sections[name];
    if (!entry) throw new Error(`reading dictionary: no ${name}`);
    return { offset: base + entry.offset, length: entry.length };
  };
  // Views on the file's one buffer: nothing is copied but the two strings.
  const view = <T>(
    name: string,
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    size: number,
  ) => {
    const { offset, length } = section(name);
    return make(bytes.buffer, offset, length / size);
  };
  const text = (name: string) => {
    const { offset, length } = section(name);
    return bytes.toString('utf16le', offset - bytes.byteOffset, offset - bytes.byteOffset + length);
  };
  const space = header.categories.findIndex((category) => category.name === 'SPACE');
  return {
    keyText: text('keyText'),
    keyOffsets: view('keyOffsets', (b, o, n) => new Int32Array(b, o, n), 4),
    entryOffsets: view('entryOffsets', (b, o, n) => new Int32Array(b, o, n), 4),
    left: view('left', (b, o, n) => new Int16Array(b, o, n), 2),
    right: view('right', (b, o, n) => new Int16Array(b, o, n), 2),
    cost: view('cost', (b, o, n) => new Int16Array(b, o, n), 2),
    readingIndex: view('readingIndex', (b, o, n) => new Int32Array(b, o, n), 4),
    readingText: text('readingText'),
    readingOffsets: view('readingOffsets', (b, o, n) => new Int32Array(b, o, n), 4),
    matrix: view('matrix', (b, o, n) => new Int16Array(b, o, n), 2),
    rightSize: header.rightSize,
    charDefault: view('charDefault', (b, o, n) => new Uint8Array(b, o, n), 1),
    charTypes: view('charTypes', (b, o, n) => new Uint16Array(b, o, n), 2),
    categories: header.categories,
    unknown: header.unknown,
    space,
  };
}

type Node = {
  /** Where the word's text begins and ends, in UTF-16 units. */
  begin: number;
  end: number;
  right: number;
  /** The best path's cost up to and including this word. */
  total: number;
  prev: Node | null;
  /** The reading's index in the dictionary, or -1 (unknown words and words without kanji). */
  reading: number;
};

/** A character's category (its first in char.def) and every category it belongs to. */
function charAt(dict: Dictionary, text: string, at: number) {
  const code = text.charCodeAt(at);
  // A character beyond the 16-bit plane is two units and DEFAULT, as MeCab's table has no row for it.
  if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length)
    return { category: 0, types: 1, units: 2 };
  return { category: dict.charDefault[code]!, types: dict.charTypes[code]!, units: 1 };
}

/** The key index range whose surfaces begin with text[at .. at+depth+1), narrowed from [lo, hi). */
function narrow(
  dict: Dictionary,
  lo: number,
  hi: number,
  depth: number,
  code: number,
): [number, number] {
  const { keyText, keyOffsets } = dict;
  const charOf = (key: number) => {
    const start = keyOffsets[key]!;
    return start + depth < keyOffsets[key + 1]! ? keyText.charCodeAt(start + depth) : -1;
  };
  const lowerBound = (from: number, to: number, value: number) => {
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (charOf(mid) < value) from = mid + 1;
      else to = mid;
    }
    return from;
  };
  const first = lowerBound(lo, hi, code);
  return [first, lowerBound(first, hi, code + 1)];
}

/** The words of a text, as MeCab with IPADIC splits it, each with its reading when it has kanji. */
export function tokenize(dict: Dictionary, text: string): Morpheme[] {
  const length = text.length;
  const endingAt: Node[][] = Array.from({ length: length + 1 }, () => []);
  endingAt[0]!.push({ begin: 0, end: 0, right: 0, total: 0, prev: null, reading: -1 });
  const { matrix, rightSize } = dict;

  const add = (
    begin: number,
    end: number,
    left: number,
    right: number,
    cost: number,
    reading: number,
  ) => {
    let best: Node | null = null;
    let bestCost = Infinity;
    // Oldest first, with a strict comparison: among equal paths the word listed first wins
    // (お手数 reads オテカズ, as in Lindera).
    for (const prev of endingAt[begin]!) {
      const total = prev.total + matrix[prev.right * rightSize + left]!;
      if (total < bestCost) {
        bestCost = total;
        best = prev;
      }
    }
    endingAt[end]!.push({ begin, end, right, total: bestCost + cost, prev: best, reading });
  };

  for (let begin = 0; begin < length; begin += 1) {
    if (endingAt[begin]!.length === 0) continue;
    let found = 0;
    let lo = 0;
    let hi = dict.keyOffsets.length - 1;
    for (let depth = 0; begin + depth < length && lo < hi; depth += 1) {
      [lo, hi] = narrow(dict, lo, hi, depth, text.charCodeAt(begin + depth));
      if (lo >= hi) break;
      // The range's first key is the prefix itself when the dictionary has it.
      if (dict.keyOffsets[lo + 1]! - dict.keyOffsets[lo]! !== depth + 1) continue;
      for (let e = dict.entryOffsets[lo]!; e < dict.entryOffsets[lo + 1]!; e += 1) {
        add(
          begin,
          begin + depth + 1,
          dict.left[e]!,
          dict.right[e]!,
          dict.cost[e]!,
          dict.readingIndex[e]!,
        );
        found += 1;
      }
    }

    const first = charAt(dict, text, begin);
    const category = dict.categories[first.category]!;
    if (found > 0 && !category.invoke) continue;
    const unknownWord = (end: number) => {
      for (const [left, right, cost] of dict.unknown[first.category]!)
        add(begin, end, left, right, cost, -1);
      found += 1;
    };
    const sameKind = (at: number) => (charAt(dict, text, at).types & first.types) !== 0;
    const afterFirst = begin + first.units;
    let groupEnd = -1;
    if (category.group) {
      let end = afterFirst;
      let count = 0;
      while (end < length && sameKind(end)) {
        end += charAt(dict, text, end).units;
        count += 1;
      }
      if (count <= MAX_GROUPING) unknownWord(end);
      groupEnd = end;
    }
    let end = afterFirst;
    for (let i = 1; i <= category.length; i += 1) {
      if (end > length) break;
      if (end === groupEnd) continue;
      unknownWord(end);
      if (end >= length || !sameKind(end)) break;
      end += charAt(dict, text, end).units;
    }
    if (found === 0) unknownWord(afterFirst);
  }

  let best: Node | null = null;
  let bestCost = Infinity;
  for (const node of endingAt[length]!) {
    const total = node.total + matrix[node.right * rightSize]!;
    if (total < bestCost) {
      bestCost = total;
      best = node;
    }
  }
  const words: Morpheme[] = [];
  for (let node = best; node && node.prev; node = node.prev) {
    // Spaces are words of the lattice (their category's costs), not of the result (as Lindera).
    if (charAt(dict, text, node.begin).types & (1 << dict.space)) continue;
    const reading =
      node.reading < 0
        ? null
        : dict.readingText.slice(
            dict.readingOffsets[node.reading],
            dict.readingOffsets[node.reading + 1],
          );
    words.push({ surface: text.slice(node.begin, node.end), reading });
  }
  return words.reverse();
}
