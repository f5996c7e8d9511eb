import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { articleJsonLd } from '@/lib/json-ld/article';
import { breadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { JsonLd } from './json-ld';

const SITE = { siteUrl: 'https://axis.example.jp', siteName: 'AXIS Membership' };

describe('<JsonLd>', () => {
  it('renders one application/ld+json script that content cannot break out of', () => {
    const article = articleJsonLd(SITE, {
      path: '/posts/p1',
      headline: '危ない</script><script>alert("x")</script>見出し',
      isAccessibleForFree: false,
    });
    const html = renderToStaticMarkup(<JsonLd data={article} />);
    expect(html.startsWith('<script type="application/ld+json">')).toBe(true);
    expect(html.endsWith('</script>')).toBe(true);
    // Only the element's own closing tag: the title's "</script>" stayed inside the JSON.
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    const json = html.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    expect(JSON.parse(json)).toMatchObject({
      '@type': 'Article',
      headline: '危ない</script><script>alert("x")</script>見出し',
      isAccessibleForFree: false,
    });
  });

  it('renders several objects as one array', () => {
    const html = renderToStaticMarkup(
      <JsonLd
        data={[
          articleJsonLd(SITE, { path: '/posts/p1', headline: 'a', isAccessibleForFree: true }),
          breadcrumbJsonLd(SITE, [{ name: 'ホーム', path: '/' }]),
        ]}
      />,
    );
    const json = html.replace(/^<script[^>]*>|<\/script>$/g, '');
    expect((JSON.parse(json) as { '@type': string }[]).map((o) => o['@type'])).toEqual([
      'Article',
      'BreadcrumbList',
    ]);
  });
});
