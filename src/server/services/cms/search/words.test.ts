import { describe, expect, it } from 'vitest';
import { readingPairs, scriptWords, wordsOf } from './words';

describe('wordsOf', () => {
  it('gives each word as a query term folds it, and the reading of each word with kanji', () => {
    expect(
      wordsOf([
        { surface: '温かみ', reading: 'アタタカミ' },
        { surface: 'の', reading: 'ノ' },
        { surface: '紙', reading: 'カミ' },
        { surface: '、', reading: '、' },
        { surface: 'デザイナー', reading: 'デザイナー' },
        { surface: 'ＵＩ', reading: null },
      ]).sort(),
    ).toEqual(['ui', 'アタタカミ', 'カミ', 'デザイナ', 'ノ', '温カミ', '紙'].sort());
  });
});

describe('scriptWords', () => {
  it('takes runs of one script as words where the analyser did not read the text', () => {
    expect(scriptWords('タイポグラフィのはなし Bauhaus 2026').sort()).toEqual(
      ['2026', 'bauhaus', 'タイポグラフィ', 'ノハナシ'].sort(),
    );
  });
});

describe('readingPairs', () => {
  it('pairs kanji with their reading, folded, kana at either end split off', () => {
    expect(
      readingPairs([
        { surface: '漆', reading: 'ウルシ' },
        { surface: '温かみ', reading: 'アタタカミ' },
        { surface: 'お茶', reading: 'オチャ' },
        { surface: '取り扱い', reading: 'トリアツカイ' },
        { surface: 'の', reading: 'ノ' },
        { surface: '漆', reading: 'ウルシ' },
        { surface: '𠮷', reading: null },
      ]),
    ).toEqual([
      ['漆', 'ウルシ'],
      ['温', 'アタタ'],
      ['茶', 'チャ'],
      ['取リ扱', 'トリアツカ'],
    ]);
  });

  it('keeps a word whose kana differ from its reading whole', () => {
    expect(readingPairs([{ surface: '一ヶ月', reading: 'イッカゲツ' }])).toEqual([
      ['一ヶ月', 'イッカゲツ'],
    ]);
  });
});
