import sanitizeHtml, { type Attributes, type IOptions } from 'sanitize-html';
import { PLAYER_PATH_BY_HOST, playerSrc } from '@/lib/cms/embeds';
import { MEMBERS_DIVIDER } from './members-divider';
import { NON_TEXT_TAGS } from '@/lib/text/html-to-text';

/**
 * Rich-text HTML from the CMS is rendered with dangerouslySetInnerHTML, so it is cut down to
 * the markup a design article needs. Everything not listed is dropped: scripts and styles with
 * their content, any other unknown element keeping its text, every attribute not listed
 * (event handlers, style, class, srcdoc, srcset), and URLs other than http(s), mailto for
 * links, and relative ones. Protocol-relative `//host` URLs are refused too: nothing we
 * publish needs them and they would let a relative-looking value point off-site.
 */

const ALLOWED_TAGS = [
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'figure',
  'figcaption',
  'img',
  'hr',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'iframe',
];

const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];
const IMAGE_SCHEMES = ['http:', 'https:'];
const REL_TOKENS: ReadonlySet<string> = new Set([
  'nofollow',
  'noopener',
  'noreferrer',
  'sponsored',
  'ugc',
  'external',
]);
const DIMENSION = /^[0-9]{1,5}$/;
const SPAN = /^[1-9][0-9]{0,2}$/;

const OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allowfullscreen', 'loading'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    // The members' divider and nothing like it (members-divider.ts).
    hr: [MEMBERS_DIVIDER.attribute],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { a: ['http', 'https', 'mailto'], iframe: ['https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: [...PLAYER_PATH_BY_HOST.keys()],
  allowIframeRelativeUrls: false,
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [...NON_TEXT_TAGS],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: linkAttributes(attribs) }),
    img: (tagName, attribs) => ({ tagName, attribs: imageAttributes(attribs) }),
    iframe: (tagName, attribs) => ({ tagName, attribs: embedAttributes(attribs) }),
    th: (tagName, attribs) => ({ tagName, attribs: cellAttributes(attribs) }),
    td: (tagName, attribs) => ({ tagName, attribs: cellAttributes(attribs) }),
    hr: (tagName, attribs) => ({ tagName, attribs: ruleAttributes(attribs) }),
  },
  // What an <iframe> holds is fallback no browser that runs the player shows. htmlparser2 12 reads
  // it as raw text, as browsers do, and sanitize-html would store it escaped, growing by one
  // escape at each save; a player is stored empty instead.
  textFilter: (text, tagName) => (tagName === 'iframe' ? '' : text),
  // An image or player whose source was refused would only leave an empty box behind.
  exclusiveFilter: (frame) => (frame.tag === 'img' || frame.tag === 'iframe') && !frame.attribs.src,
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

type AttributeRule = (value: string) => string | null;

/** Keeps the attributes a rule accepts, with the value it returns, in their original order. */
function keep(attribs: Attributes, rules: ReadonlyMap<string, AttributeRule>): Attributes {
  const result: Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    const kept = rules.get(name)?.(value);
    if (kept !== undefined && kept !== null) result[name] = kept;
  }
  return result;
}

const dimension: AttributeRule = (value) => (DIMENSION.test(value) ? value : null);
const loading: AttributeRule = (value) => (value === 'lazy' || value === 'eager' ? value : null);
const verbatim: AttributeRule = (value) => value;

const LINK_RULES: ReadonlyMap<string, AttributeRule> = new Map<string, AttributeRule>([
  ['href', (value) => safeUrl(value, LINK_SCHEMES)],
  // Browsers read target names case-insensitively, so _BLANK needs the same protection.
  ['target', (value) => (value.trim().toLowerCase() === '_blank' ? '_blank' : null)],
  ['rel', (value) => relTokens(value).join(' ') || null],
]);

const IMAGE_RULES: ReadonlyMap<string, AttributeRule> = new Map<string, AttributeRule>([
  ['src', (value) => safeUrl(value, IMAGE_SCHEMES)],
  ['alt', verbatim],
  ['width', dimension],
  ['height', dimension],
  ['loading', loading],
]);

const EMBED_RULES: ReadonlyMap<string, AttributeRule> = new Map<string, AttributeRule>([
  // Players only (embeds.ts); X and Instagram posts are a figure with one link.
  ['src', playerSrc],
  ['width', dimension],
  ['height', dimension],
  ['title', verbatim],
  ['allowfullscreen', () => ''],
  ['loading', loading],
]);

const CELL_RULES: ReadonlyMap<string, AttributeRule> = new Map<string, AttributeRule>([
  ['colspan', (value) => (SPAN.test(value) ? value : null)],
  ['rowspan', (value) => (SPAN.test(value) ? value : null)],
]);

function linkAttributes(attribs: Attributes): Attributes {
  const result = keep(attribs, LINK_RULES);
  if (result.target === '_blank') {
    const rel = new Set(relTokens(result.rel ?? ''));
    rel.add('noopener');
    rel.add('noreferrer');
    result.rel = [...rel].join(' ');
  }
  return result;
}

function imageAttributes(attribs: Attributes): Attributes {
  return keep(attribs, IMAGE_RULES);
}

function embedAttributes(attribs: Attributes): Attributes {
  return keep(attribs, EMBED_RULES);
}

function cellAttributes(attribs: Attributes): Attributes {
  return keep(attribs, CELL_RULES);
}

/** The divider's attribute, whatever value it came with, is written empty: one spelling. */
function ruleAttributes(attribs: Attributes): Attributes {
  return Object.hasOwn(attribs, MEMBERS_DIVIDER.attribute)
    ? { [MEMBERS_DIVIDER.attribute]: '' }
    : {};
}

function relTokens(value: string): string[] {
  return [...new Set(value.toLowerCase().split(/\s+/))].filter((token) => REL_TOKENS.has(token));
}

/**
 * A second check next to sanitize-html's own scheme filter, using the WHATWG URL parser the
 * browser itself uses, so tricks that rely on how browsers strip tabs, newlines and leading
 * control characters are judged the way the browser would judge them.
 */
function safeUrl(value: string, schemes: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(value, 'https://relative.invalid/');
  } catch {
    return null;
  }
  if (!schemes.includes(url.protocol)) return null;
  return value;
}
