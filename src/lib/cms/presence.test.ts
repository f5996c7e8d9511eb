import { describe, expect, it } from 'vitest';
import {
  PRESENCE_TTL_MS,
  type PresenceAnswer,
  editingMarker,
  editingSentence,
  isPresent,
  presenceAnswerSchema,
  presenceCutoff,
  savedMeanwhile,
  sinceText,
} from './presence';

const now = new Date('2026-11-27T06:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('presence expiry', () => {
  it('counts an entry renewed within 45 s, and not one a millisecond older', () => {
    expect(PRESENCE_TTL_MS).toBe(45_000);
    expect(isPresent(now, now)).toBe(true);
    expect(isPresent(ago(45_000), now)).toBe(true);
    expect(isPresent(ago(45_001), now)).toBe(false);
    expect(presenceCutoff(now).toISOString()).toBe('2026-11-27T05:59:15.000Z');
  });

  it('keeps an editor whose heartbeat (every 15 s) was lost once or twice', () => {
    expect(isPresent(ago(30_000), now)).toBe(true);
  });
});

describe('what the editor says', () => {
  it('says since when, counted from the server clock', () => {
    expect(sinceText(ago(59_999), now)).toBe('さきほどから');
    expect(sinceText(ago(3 * 60_000 + 5_000), now)).toBe('3分前から');
    expect(sinceText(ago(2 * 3_600_000 + 60_000), now)).toBe('2時間前から');
    // A clock ahead of the server's never says "-1分前".
    expect(sinceText(new Date(now.getTime() + 90_000), now)).toBe('さきほどから');
    expect(editingSentence({ name: '佐藤', since: ago(180_000).toISOString() }, now)).toBe(
      '佐藤さんが3分前から編集中です',
    );
  });

  it("marks a list row with the first editor's name and how many more", () => {
    expect(editingMarker([])).toBe('');
    expect(editingMarker(['佐藤'])).toBe('佐藤さんが編集中');
    expect(editingMarker(['佐藤', '鈴木', '高橋'])).toBe('佐藤さんほか2人が編集中');
  });
});

describe('saved meanwhile', () => {
  const base = '2026-11-27T05:50:00.000Z';
  const answer = (saved: PresenceAnswer['saved']): PresenceAnswer => ({
    at: now.toISOString(),
    editors: [],
    saved,
  });

  it("warns when someone else saved after the editor's version, naming them in Japan time", () => {
    expect(
      savedMeanwhile(
        answer({ updatedAt: '2026-11-27T05:55:00.000Z', by: '佐藤', mine: false }),
        base,
      ),
    ).toBe(
      '佐藤さんが2026年11月27日 14:55にこの項目を保存しました。このまま保存すると競合します。',
    );
    expect(
      savedMeanwhile(
        answer({ updatedAt: '2026-11-27T05:55:00.000Z', by: null, mine: false }),
        base,
      ),
    ).toBe('この項目は2026年11月27日 14:55に更新されました。このまま保存すると競合します。');
  });

  it("says nothing for the editor's own version, an older one, or one's own save", () => {
    expect(savedMeanwhile(answer({ updatedAt: base, by: '佐藤', mine: false }), base)).toBeNull();
    expect(
      savedMeanwhile(
        answer({ updatedAt: '2026-11-27T05:40:00.000Z', by: '佐藤', mine: false }),
        base,
      ),
    ).toBeNull();
    expect(
      savedMeanwhile(answer({ updatedAt: '2026-11-27T05:55:00.000Z', by: '私', mine: true }), base),
    ).toBeNull();
    expect(savedMeanwhile(answer(null), base)).toBeNull();
  });

  it('warns an editor who started from nothing once the item was written', () => {
    expect(
      savedMeanwhile(answer({ updatedAt: base, by: '佐藤', mine: false }), null),
    ).not.toBeNull();
  });

  it('reads only a well-formed answer', () => {
    expect(presenceAnswerSchema.safeParse(answer(null)).success).toBe(true);
    expect(presenceAnswerSchema.safeParse({ at: 'x', editors: [], saved: null }).success).toBe(
      false,
    );
  });
});
