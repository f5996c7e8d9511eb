/**
 * The reading analyser in the server (src/server/services/cms/search/ipadic.ts) beside Lindera's
 * WebAssembly build of the same dictionary (docs/decisions/060-readings-in-the-server.md): every
 * distinct Japanese phrase with kanji in this repository's documents, sources and demo content,
 * split by both; prints how many phrases got the same words and readings, the differences, and
 * each one's time and memory. `npm run bench:readings-agreement`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { loadDictionary, tokenize } from '../src/server/services/cms/search/ipadic';
import { readingDictionaryFile } from '../src/server/services/cms/search/reading-dictionary';

const HAN = /\p{sc=Han}/u;
const PHRASE =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005\u30070-9A-Za-z０-９、・「」]+/gu;

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, out);
    else if (/\.(md|ts|tsx|json)$/.test(entry.name)) out.push(full);
  }
  return out;
}

const phrases = new Set<string>();
for (const file of [...filesUnder('docs'), ...filesUnder('src')]) {
  for (const match of fs.readFileSync(file, 'utf8').match(PHRASE) ?? [])
    if (HAN.test(match)) phrases.add(match);
}
const list = [...phrases];
const chars = list.reduce((sum, p) => sum + p.length, 0);

const require = createRequire(path.join(process.cwd(), 'package.json'));
const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);

const rss0 = rss();
let t = performance.now();
const dict = loadDictionary(await readingDictionaryFile());
const loadMs = performance.now() - t;
const rss1 = rss();
t = performance.now();
const ours = list.map((p) =>
  tokenize(dict, p)
    .map((w) => `${w.surface}/${w.reading ?? ''}`)
    .join(' '),
);
const oursMs = performance.now() - t;
const rss2 = rss();

t = performance.now();
type LinderaToken = { surface: string; reading?: string };
type LinderaModule = {
  TokenizerBuilder: new () => {
    setDictionary(uri: string): void;
    setMode(mode: string): void;
    build(): { tokenize(text: string): LinderaToken[] };
  };
};
const { TokenizerBuilder } = require('lindera-wasm-nodejs-ipadic') as LinderaModule;
const builder = new TokenizerBuilder();
builder.setDictionary('embedded://ipadic');
builder.setMode('normal');
const lindera = builder.build();
const linderaLoadMs = performance.now() - t;
t = performance.now();
const theirs = list.map((p) =>
  lindera
    .tokenize(p)
    .map(
      (w) =>
        `${w.surface}/${w.reading && w.reading !== '*' && HAN.test(w.surface) ? w.reading : ''}`,
    )
    .join(' '),
);
const linderaMs = performance.now() - t;

const differ = list.map((p, i) => [p, ours[i], theirs[i]] as const).filter(([, a, b]) => a !== b);
console.log(`phrases with kanji: ${list.length} (${chars} characters)`);
console.log(`same words and readings as Lindera: ${list.length - differ.length} of ${list.length}`);
for (const [p, a, b] of differ.slice(0, 20))
  console.log(`  ${p}\n    ours:    ${a}\n    lindera: ${b}`);
console.log(
  `ours: load ${loadMs.toFixed(0)} ms, all phrases ${oursMs.toFixed(0)} ms, RSS ${rss0} → ${rss1} (loaded) → ${rss2} MiB (after reading)`,
);
console.log(
  `lindera: load ${linderaLoadMs.toFixed(0)} ms, all phrases ${linderaMs.toFixed(0)} ms, RSS after ${rss()} MiB`,
);
