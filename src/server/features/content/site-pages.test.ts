import { describe, expect, it } from 'vitest';
import { CONTENT_MODEL } from '@/lib/cms/model';
import { DEMO_PAGES } from '@/server/features/seed/demo-pages';
import { SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import { PRIVACY_HEADING, sitePageLabel, splitAtSection } from './site-pages';

describe('site pages', () => {
  it('are the object endpoints of the content model (but the home page settings), each with a demo page', () => {
    const objects = CONTENT_MODEL.filter((e) => e.kind === 'object' && e.endpoint !== 'home').map(
      (e) => e.endpoint,
    );
    expect([...SITE_PAGE_ENDPOINTS].sort()).toEqual(objects.sort());
    for (const endpoint of SITE_PAGE_ENDPOINTS) {
      expect(
        DEMO_PAGES.some((p) => p.endpoint === endpoint),
        endpoint,
      ).toBe(true);
    }
    expect(sitePageLabel('specified-commercial-transactions')).toBe('特定商取引法に基づく表記');
  });
});

describe('splitAtSection', () => {
  const html =
    '<p>前文</p><h2>第1条（適用）</h2><p>一</p><h2>第13条（<em>個人情報</em>の取扱い）</h2><p>十三</p><h2>附則</h2><p>施行</p>';

  it('cuts out the first matching h2 and what follows it up to the next h2', () => {
    expect(splitAtSection(html, PRIVACY_HEADING)).toEqual({
      before: '<p>前文</p><h2>第1条（適用）</h2><p>一</p>',
      section: '<h2>第13条（<em>個人情報</em>の取扱い）</h2><p>十三</p>',
      after: '<h2>附則</h2><p>施行</p>',
    });
  });

  it('runs to the end when the section is the last one, and is null without a match', () => {
    expect(splitAtSection('<h2 class="x">プライバシー</h2><p>a</p>', PRIVACY_HEADING)).toEqual({
      before: '',
      section: '<h2 class="x">プライバシー</h2><p>a</p>',
      after: '',
    });
    expect(splitAtSection('<p>個人情報</p><h2>第1条</h2>', PRIVACY_HEADING)).toBeNull();
    // The heading's text as a reader reads it: entities decoded, markup (attributes too) left out.
    expect(
      splitAtSection('<h2><a title="a>b">&#20491;人情報</a></h2>', PRIVACY_HEADING)?.section,
    ).toBe('<h2><a title="a>b">&#20491;人情報</a></h2>');
    expect(splitAtSection('', PRIVACY_HEADING)).toBeNull();
  });

  it('finds the privacy article in the demo terms', () => {
    const terms = DEMO_PAGES.find((p) => p.endpoint === 'terms')!.body.body;
    const parts = splitAtSection(terms, PRIVACY_HEADING);
    expect(parts?.section).toMatch(/^<h2>第13条（個人情報の取扱い）<\/h2><p>/);
    expect(parts?.after).toMatch(/^<h2>第14条/);
    expect(parts!.before + parts!.section + parts!.after).toBe(terms);
  });
});
