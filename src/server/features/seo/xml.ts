import 'server-only';

/**
 * XML text for the feed and the sitemap index. Characters XML 1.0 forbids (most C0 controls,
 * lone surrogates, U+FFFE/U+FFFF) are dropped: an editor's pasted control character must not
 * make the whole document unreadable for a feed reader or a crawler.
 */

/**
 * The feed and the sitemap index are the same for every visitor (published content only):
 * readers and crawlers may keep them a few minutes, so a new post shows up within that.
 */
export const XML_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=600';

// eslint-disable-next-line no-control-regex -- these are exactly the characters to drop
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripInvalidXmlChars(text: string): string {
  return text.replace(INVALID_XML_CHARS, '').replace(LONE_SURROGATES, '');
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text for an element's content or an attribute value. */
export function escapeXml(text: string): string {
  return stripInvalidXmlChars(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * A CDATA section. `]]>` would end it early, so it is split across two sections
 * (`]]` + `>`), which a parser joins back into the same text.
 */
export function cdata(text: string): string {
  return `<![CDATA[${stripInvalidXmlChars(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
