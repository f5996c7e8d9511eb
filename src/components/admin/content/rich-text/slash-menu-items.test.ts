import { SLASH_ITEMS, filterSlashItems } from './slash-menu-items';

const labels = (query: string) => filterSlashItems(SLASH_ITEMS, query).map((item) => item.label);

describe('filterSlashItems', () => {
  it('lists every item in order for an empty query', () => {
    expect(labels('')).toEqual(SLASH_ITEMS.map((item) => item.label));
    expect(labels('').slice(0, 7)).toEqual([
      '見出し2',
      '見出し3',
      '見出し4',
      '画像',
      '埋め込み',
      '引用',
      '区切り線',
    ]);
  });

  it('matches the label, its kana reading before conversion, romaji and English', () => {
    expect(labels('見出し')).toEqual(['見出し2', '見出し3', '見出し4']);
    expect(labels('みだし')).toEqual(['見出し2', '見出し3', '見出し4']);
    expect(labels('ミダシ3')).toEqual([]);
    expect(labels('h3')).toEqual(['見出し3']);
    expect(labels('がぞう')).toEqual(['画像']);
    expect(labels('ＩＭＡＧＥ')).toEqual(['画像']);
    expect(labels('youtube')).toEqual(['埋め込み']);
    expect(labels('quote')).toEqual(['引用']);
  });

  it('puts labels that start with the query first', () => {
    expect(labels('区切')).toEqual(['区切り線', '会員限定の区切り']);
    expect(labels('リスト')).toEqual(['番号付きリスト']);
    expect(labels('list')).toEqual(['箇条書き', '番号付きリスト']);
  });

  it('finds nothing for text that names no block', () => {
    expect(labels('存在しない')).toEqual([]);
  });
});
