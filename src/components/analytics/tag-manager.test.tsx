import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { tagManagerSnippet } from '@/lib/analytics/tag-manager';
import { TagManager } from './tag-manager';

describe('TagManager', () => {
  // The page CSP allows the snippet by the hash of tagManagerSnippet: the layout must inline
  // exactly that text.
  it('inlines exactly the snippet the CSP hashes', () => {
    const html = renderToStaticMarkup(<TagManager gtmId="GTM-ABC123" />);
    expect(html).toBe(`<script id="gtm">${tagManagerSnippet('GTM-ABC123')}</script>`);
  });

  it('renders nothing without a container', () => {
    expect(renderToStaticMarkup(<TagManager gtmId={undefined} />)).toBe('');
  });
});
