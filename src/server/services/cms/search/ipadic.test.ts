import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DICTIONARY_FORMAT, type Dictionary, loadDictionary, tokenize } from './ipadic';
import { readingDictionaryFile } from './reading-dictionary';

let dict: Dictionary;
beforeAll(async () => {
  dict = loadDictionary(await readingDictionaryFile());
});

const split = (text: string) =>
  tokenize(dict, text).map((w) => (w.reading ? `${w.surface}/${w.reading}` : w.surface));

describe('IPADIC analysis in the server (the words and readings MeCab gives)', () => {
  it('splits a sentence into words and reads its kanji', () => {
    expect(split('漆の器と和紙を展覧会で見た')).toEqual([
      '漆/ウルシ',
      'の',
      '器/ウツワ',
      'と',
      '和紙/ワシ',
      'を',
      '展覧/テンラン',
      '会/カイ',
      'で',
      '見/ミ',
      'た',
    ]);
  });

  it('takes the word listed first among equal ones (お手数 オテカズ, 大文字 ダイモンジ)', () => {
    expect(split('お手数ですが大文字で')).toEqual([
      'お手数/オテカズ',
      'です',
      'が',
      '大文字/ダイモンジ',
      'で',
    ]);
  });

  it('groups unknown katakana, Latin and digits into one word each', () => {
    expect(split('ソラネ建築のDesign2026')).toEqual([
      'ソラネ',
      '建築/ケンチク',
      'の',
      'Design',
      '2026',
    ]);
  });

  it('keeps spaces out of words, ends at the last word, and reads a character beyond 16 bits', () => {
    expect(split(' 漆  器 ')).toEqual(['漆/ウルシ', '器/ウツワ']);
    expect(split('𠮷野家')).toEqual(['𠮷', '野家/ノヤ']);
    expect(split('')).toEqual([]);
    expect(split('   ')).toEqual([]);
  });

  it('is built in the format the loader reads', () => {
    const source = fs.readFileSync('scripts/build-ipadic.mjs', 'utf8');
    expect(source).toContain(`const FORMAT = ${DICTIONARY_FORMAT};`);
  });
});
