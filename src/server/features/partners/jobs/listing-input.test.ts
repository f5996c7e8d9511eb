import { describe, expect, it } from 'vitest';
import {
  EMPTY_LISTING,
  type ListingFields,
  listingChanges,
  missingForReview,
  paragraphsHtml,
  parseListingFields,
  toJobContent,
} from './listing-input';

/** The listing form's rules as a partner meets them: what a draft may hold, what review needs. */

const NOW = new Date('2026-11-24T03:00:00Z'); // 12:00 in Japan

const errorsOf = (input: Record<string, unknown>) => {
  const parsed = parseListingFields(input);
  if (parsed.ok) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
};

const ready: ListingFields = {
  ...EMPTY_LISTING,
  title: 'グラフィックデザイナー',
  description: '概要',
  details: '仕事内容',
  employmentType: '正社員',
  occupation: 'グラフィックデザイン',
  prefecture: '東京都',
  remote: '出社',
  salaryUnit: '年収',
  salaryMin: 4_000_000,
  hours: '10:00〜19:00',
  applyUrl: 'https://example.jp/recruit',
  closingDate: '2026-12-31',
};

describe('a listing draft', () => {
  it('needs a title and nothing else', () => {
    expect(parseListingFields({ title: '  デザイナー  ' })).toMatchObject({
      ok: true,
      fields: { ...EMPTY_LISTING, title: 'デザイナー' },
    });
    expect(errorsOf({ title: '   ' })).toEqual({ title: '職種名を入力してください。' });
  });

  it('reads salaries as yen written the way people write them', () => {
    const parsed = parseListingFields({
      title: 't',
      salaryMin: '４,０００,０００円',
      salaryMax: '',
    });
    expect(parsed).toMatchObject({ ok: true, fields: { salaryMin: 4_000_000, salaryMax: null } });
    expect(errorsOf({ title: 't', salaryMin: '400万' }).salaryMin).toContain('円単位');
    expect(errorsOf({ title: 't', salaryMin: '-1' }).salaryMin).toContain('円単位');
    expect(errorsOf({ title: 't', salaryMin: '5000000', salaryMax: '4000000' })).toEqual({
      salaryMax: '給与の上限は下限以上の金額を入力してください。',
    });
  });

  it('refuses values outside the lists, and each text past its length', () => {
    expect(errorsOf({ title: 't', employmentType: '正社員（急募）' }).employmentType).toContain(
      '一覧から選んでください',
    );
    expect(errorsOf({ title: 'あ'.repeat(101) }).title).toContain('100文字以内');
    expect(errorsOf({ title: 't', details: 'あ'.repeat(10_001) }).details).toContain(
      '10,000文字以内',
    );
  });

  it('accepts only a web address and a mailbox to apply to', () => {
    expect(errorsOf({ title: 't', applyUrl: 'javascript:alert(1)' }).applyUrl).toContain(
      'https://',
    );
    expect(errorsOf({ title: 't', applyUrl: 'example.jp/recruit' }).applyUrl).toContain('https://');
    expect(errorsOf({ title: 't', applyEmail: 'recruit@' }).applyEmail).toBe(
      'メールアドレスの形式が正しくありません。',
    );
    expect(errorsOf({ title: 't', applyUrl: 'https://example.jp/r?a=1' })).toEqual({});
  });

  it('takes a closing date that exists, written with slashes too', () => {
    expect(parseListingFields({ title: 't', closingDate: '2027/03/31' })).toMatchObject({
      ok: true,
      fields: { closingDate: '2027-03-31' },
    });
    expect(errorsOf({ title: 't', closingDate: '2027-02-30' }).closingDate).toContain(
      '実在する日付',
    );
  });
});

describe('submitting for review', () => {
  it('needs every condition a reader looks for', () => {
    expect(missingForReview(ready, NOW)).toEqual({});
    const missing = missingForReview({ ...EMPTY_LISTING, title: 't' }, NOW);
    expect(Object.keys(missing).sort()).toEqual(
      [
        'applyUrl',
        'closingDate',
        'description',
        'details',
        'employmentType',
        'hours',
        'occupation',
        'prefecture',
        'remote',
        'salaryMin',
        'salaryUnit',
      ].sort(),
    );
  });

  it('needs no prefecture for a fully remote job, and either way to apply', () => {
    expect(missingForReview({ ...ready, remote: 'フルリモート', prefecture: '' }, NOW)).toEqual({});
    expect(missingForReview({ ...ready, applyUrl: '', applyEmail: 'a@example.jp' }, NOW)).toEqual(
      {},
    );
    expect(missingForReview({ ...ready, applyUrl: '' }, NOW)).toHaveProperty('applyUrl');
  });

  it('takes a closing day from today, in Japan, to a year ahead', () => {
    expect(missingForReview({ ...ready, closingDate: '2026-11-24' }, NOW)).toEqual({});
    expect(missingForReview({ ...ready, closingDate: '2026-11-23' }, NOW).closingDate).toBe(
      '募集締切は今日以降の日付を指定してください。',
    );
    expect(missingForReview({ ...ready, closingDate: '2027-12-31' }, NOW).closingDate).toContain(
      '366日以内',
    );
  });
});

describe('the published job', () => {
  it('turns blank lines into paragraphs and escapes the text', () => {
    expect(paragraphsHtml('一行目\r\n二行目\r\n\r\n<b>次</b>の段落')).toBe(
      '<p>一行目<br>二行目</p><p>&lt;b&gt;次&lt;/b&gt;の段落</p>',
    );
  });

  it('is open through the end of its closing day in Japan', () => {
    expect(toJobContent(ready, 'acme')).toMatchObject({
      partner: 'acme',
      employmentType: ['正社員'],
      salaryMax: null,
      applyEmail: '',
      closingDate: '2026-12-31T23:59:59+09:00',
    });
  });
});

describe('a resubmitted listing', () => {
  it('shows staff only what changed since they last saw it, by characters', () => {
    const resubmitted: ListingFields = {
      ...ready,
      title: 'グラフィックデザイナー（経験者）',
      salaryMax: 6_500_000,
      closingDate: '2027-01-15',
    };
    const changes = listingChanges(ready, resubmitted);
    expect(changes.map((c) => c.label)).toEqual([
      '職種名 (求人タイトル)',
      '給与 (上限)',
      '募集締切',
    ]);
    expect(changes[0]).toMatchObject({
      type: 'text',
      parts: [
        { op: 'same', text: 'グラフィックデザイナー' },
        { op: 'ins', text: '（経験者）' },
      ],
    });
    // Amounts and days as the listing shows them.
    expect(changes[1]).toMatchObject({ parts: [{ op: 'ins', text: '6,500,000円' }] });
    const closing = changes[2]!.type === 'text' ? changes[2]!.parts : [];
    expect(
      closing
        .filter((p) => p.op === 'same')
        .map((p) => p.text)
        .join(''),
    ).toContain('年');
    expect(closing.map((p) => (p.op === 'del' ? '' : p.text)).join('')).toBe('2027年1月15日');
    expect(listingChanges(ready, { ...ready })).toEqual([]);
  });
});
