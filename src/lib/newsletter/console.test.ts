import { describe, expect, it } from 'vitest';
import { letterCounts, overlappingSends, sendSummary, totalLetters } from './console';

const counts = letterCounts;

describe('overlappingSends', () => {
  const earlier = [
    { id: 'a', segment: 'free', status: 'done' },
    { id: 'b', segment: 'paid', status: 'cancelled' },
  ];

  it('finds an earlier send to the same segment, or any send when either is everyone', () => {
    expect(overlappingSends(earlier, 'free').map((s) => s.id)).toEqual(['a']);
    expect(overlappingSends(earlier, 'all').map((s) => s.id)).toEqual(['a']);
    expect(overlappingSends([{ id: 'c', segment: 'all', status: 'queued' }], 'paid')).toHaveLength(
      1,
    );
  });

  it('leaves out other segments and cancelled sends (they reached nobody)', () => {
    expect(overlappingSends(earlier, 'paid')).toEqual([]);
  });
});

describe('sendSummary', () => {
  it('says how far a send is, and what went wrong', () => {
    expect(sendSummary('sending', counts({ queued: 3, sent: 6, failed: 1 }))).toBe(
      '配信中: 10 通中 6 通送信済み（残り 3 通）、失敗 1 通。',
    );
    expect(sendSummary('done', counts({ sent: 9, uncertain: 1 }))).toBe(
      '配信が完了しました: 10 通中 9 通送信済み、結果不明 1 通。',
    );
    expect(sendSummary('scheduled', counts())).toBe('記事の公開と同時に配信します。');
    expect(
      totalLetters(counts({ queued: 1, sending: 2, sent: 3, failed: 4, uncertain: 5, opened: 9 })),
    ).toBe(15);
  });
});
