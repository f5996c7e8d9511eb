import { renderToStaticMarkup } from 'react-dom/server';
import { TagManager } from './tag-manager';

describe('TagManager', () => {
  it('renders nothing without a container id', () => {
    expect(renderToStaticMarkup(<TagManager gtmId={undefined} />)).toBe('');
  });

  it('inlines the GTM snippet for the configured container', () => {
    const html = renderToStaticMarkup(<TagManager gtmId="GTM-ABC123" />);
    expect(html).toMatch(/^<script id="gtm">/);
    expect(html).toContain('\'dataLayer\',"GTM-ABC123")');
    expect(html).toContain('https://www.googletagmanager.com/gtm.js?id=');
  });
});
