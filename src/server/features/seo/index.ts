/**
 * The seo feature's entry for the rest of src/server (docs/decisions/045-server-tiers.md): the
 * XML text helpers other feeds share (the podcast feeds, docs/decisions/062-private-podcast-feeds.md).
 */
export { rfc822 } from './rss';
export { escapeXml, XML_CACHE_CONTROL } from './xml';
