import { describe, expect, it } from 'vitest';
import { displayWidth, surfaceText, truncateToWidth } from './share-truncate';

describe('display width', () => {
  it('counts a Japanese character as two units and a Latin letter as one', () => {
    expect(displayWidth('AXIS')).toBe(4);
    expect(displayWidth('デザイン')).toBe(8);
    expect(displayWidth('ＡＢ１')).toBe(6);
    expect(displayWidth('建築 2026')).toBe(9);
  });
});

describe('truncateToWidth', () => {
  it('keeps a text that fits', () => {
    expect(truncateToWidth('短い題', 60)).toBe('短い題');
  });

  it('cuts by width: about half as many Japanese characters as Latin letters', () => {
    const ja = truncateToWidth('あ'.repeat(40), 60);
    const en = truncateToWidth('a'.repeat(80), 60);
    expect(ja).toBe(`${'あ'.repeat(29)}…`);
    expect(en).toBe(`${'a'.repeat(59)}…`);
    expect(displayWidth(ja)).toBeLessThanOrEqual(60);
  });

  it('never splits a character outside the BMP, and collapses white space', () => {
    expect(truncateToWidth('𠮷'.repeat(10), 9)).toBe('𠮷𠮷𠮷𠮷…');
    expect(truncateToWidth('  題\n  名 ', 20)).toBe('題 名');
  });
});

describe('surfaceText', () => {
  const share = { title: '建'.repeat(50), description: '説'.repeat(200) };
  it('cuts a title as Google does, with its " ..."', () => {
    const google = surfaceText('google', share);
    expect(google.title.endsWith(' ...')).toBe(true);
    expect(displayWidth(google.title)).toBeLessThanOrEqual(60);
    expect(displayWidth(google.description)).toBeLessThanOrEqual(240);
  });
  it('gives the X card no description and LINE the shortest title', () => {
    expect(surfaceText('x', share).description).toBe('');
    expect(displayWidth(surfaceText('line', share).title)).toBeLessThanOrEqual(48);
  });
});
