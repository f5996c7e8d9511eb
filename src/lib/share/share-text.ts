import { rememberLast } from '@/lib/remember-last';
import {
  NON_TEXT_TAGS,
  RUBY_READING_TAGS,
  STOP,
  htmlToText,
  walkHtml,
} from '@/lib/text/html-to-text';

/**
 * Rich text as the one line of prose a description is made of: no pictures, players, captions
 * or ruby readings, every tag a space, white space collapsed.
 */

const NOT_PROSE: ReadonlySet<string> = new Set([
  ...NON_TEXT_TAGS,
  ...RUBY_READING_TAGS,
  'figure',
  'figcaption',
  'img',
  'picture',
  'iframe',
  'video',
  'audio',
]);

/** An item's description is made from the same lead on every render: the last few are kept. */
export const proseOf: (html: string) => string = rememberLast(64, (html) =>
  htmlToText(html, { skip: NOT_PROSE, edge: () => ' ', whitespace: 'collapse' }),
);

/** The attribute of the members' divider (`<hr data-members-divider>`). */
const DIVIDER_ATTRIBUTE = 'data-members-divider';
/** Characters of a lead without the divider (src/lib/access/lead.ts LEAD_MAX_CHARS). */
const LEAD_WITHOUT_DIVIDER = 300;

/**
 * What the editor's previews take as the lead's text while the editor types: the text above
 * the divider, or without one at most 300 characters and half of the body. The pages use the
 * server's lead (src/lib/access/lead.ts); this only has to agree on where it ends.
 */
export function previewLeadText(html: string): string {
  let divider = false;
  const parts: string[] = [];
  walkHtml(
    html,
    {
      open(name, attribs) {
        if (name === 'hr' && Object.hasOwn(attribs, DIVIDER_ATTRIBUTE)) {
          divider = true;
          return STOP;
        }
        parts.push(' ');
      },
      text(text) {
        parts.push(text);
      },
      close() {
        parts.push(' ');
      },
    },
    { skip: NOT_PROSE },
  );
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  if (divider) return text;
  const chars = Array.from(text);
  return chars.slice(0, Math.min(LEAD_WITHOUT_DIVIDER, Math.floor(chars.length / 2))).join('');
}
