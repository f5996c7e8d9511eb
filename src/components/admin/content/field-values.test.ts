import { describe, expect, it } from 'vitest';
import type { FieldDef } from '@/lib/cms/model';
import { clientFieldErrors, initialValues, isoToJstInput, jstInputToIso } from './field-values';

describe('Japan time for datetime-local', () => {
  it('shows an ISO instant as the wall-clock time in Tokyo, and back', () => {
    expect(isoToJstInput('2026-12-31T15:30:00.000Z')).toBe('2027-01-01T00:30');
    expect(jstInputToIso('2027-01-01T00:30')).toBe('2026-12-31T15:30:00.000Z');
    expect(jstInputToIso('2027-01-01T00:30:15')).toBe('2026-12-31T15:30:15.000Z');
    expect(isoToJstInput(null)).toBe('');
    expect(isoToJstInput('not a date')).toBe('');
  });

  it('refuses what is not a date-time, including days that do not exist', () => {
    expect(jstInputToIso('')).toBeNull();
    expect(jstInputToIso('2026-02-30T10:00')).toBeNull();
    expect(jstInputToIso('2026-01-01T24:30')).toBeNull();
    expect(jstInputToIso('2026-01-01')).toBeNull();
  });
});

const fields: FieldDef[] = [
  { id: 'title', label: 'タイトル', kind: 'text', required: true, maxLength: 5 },
  { id: 'url', label: 'URL', kind: 'text', urlPrefixes: ['https://'] },
  { id: 'n', label: '数', kind: 'number', min: 0, max: 10 },
  { id: 'body', label: '本文', kind: 'richEditor', required: true },
  { id: 'cat', label: '特集', kind: 'relation', endpoint: 'categories' },
  { id: 'tags', label: 'タグ', kind: 'relationList', endpoint: 'tags' },
  { id: 'fmt', label: '形式', kind: 'select', options: ['a'] },
  { id: 'flag', label: '旗', kind: 'boolean' },
];

describe('initialValues', () => {
  it('gives every field a value in the write shape, read shapes and empties included', () => {
    expect(
      initialValues(fields, {
        title: 'T',
        cat: { id: 'c1' },
        tags: [{ id: 't1' }, 't2'],
        fmt: 'a',
      }),
    ).toEqual({
      title: 'T',
      url: '',
      n: null,
      body: '',
      cat: 'c1',
      tags: ['t1', 't2'],
      fmt: ['a'],
      flag: false,
    });
  });
});

describe('clientFieldErrors', () => {
  it('finds in Japanese what the server would refuse', () => {
    expect(
      clientFieldErrors(fields, {
        title: '六文字のだい',
        url: 'http://a.jp',
        n: 11,
        body: '<p> </p>',
      }),
    ).toEqual({
      title: '5文字以内で入力してください（現在 6文字）。',
      url: 'https:// で始まる URL を入力してください。',
      n: '0〜10の数値を入力してください。',
      body: '本文を入力してください。',
    });
    expect(
      clientFieldErrors(fields, { title: '🙂🙂🙂🙂🙂', body: '<p><img src="/a.png"></p>' }),
    ).toEqual({});
    // An emptied editor's leftovers are empty; an escaped character is text.
    for (const body of ['<p></p>', '<p>&nbsp;</p>', '<p><br></p>\n<p>&#160; </p>'])
      expect(clientFieldErrors(fields, { title: 'a', body }).body, body).toBeDefined();
    for (const body of ['<p>&amp;</p>', '<p><strong>a</strong></p>'])
      expect(clientFieldErrors(fields, { title: 'a', body }).body, body).toBeUndefined();
  });
});
