import robots from './robots';

describe('robots.txt', () => {
  it('keeps crawlers out of private areas and points at the sitemap index', () => {
    const { rules, sitemap } = robots();
    const rule = Array.isArray(rules) ? rules[0] : rules;
    expect(rule?.disallow).toEqual(
      expect.arrayContaining(['/admin', '/account', '/api/', '/biz/axis-admin']),
    );
    expect(sitemap).toMatch(/\/sitemap\.xml$/);
  });

  it('lets crawlers fetch the noindex pages, so they see the noindex', () => {
    const { rules } = robots();
    const rule = Array.isArray(rules) ? rules[0] : rules;
    expect(rule?.disallow).not.toContain('/search');
    expect(rule?.disallow).not.toContain('/posts/bookmark');
  });
});
