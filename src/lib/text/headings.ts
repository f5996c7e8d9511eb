import { loadDefaultJapaneseParser } from 'budoux';
import { Parser } from 'htmlparser2';
import { escapeHtml } from './escape-html';

/**
 * An article's headings, made linkable and unbreakable mid-phrase, on the server where the
 * rich text is rendered (src/components/content/rich-text.tsx):
 *
 * - every h2 and h3 gets an `id` made from its own text (Japanese kept as it is, so a shared
 *   link reads `#漆の器を選ぶ`), unique in the body (`-2`, `-3` for a repeat) and stable: the
 *   same text in the same order gives the same id on every render, and a visitor's lead (the
 *   start of the body) gets the very ids the full body has for the same headings;
 * - h2, h3 and h4 get a `<wbr>` between BudouX phrases, so with `word-break: keep-all` a
 *   heading wraps only between phrases (「目を／留める」 never happens);
 * - the h2 and h3 are listed, in order, for the table of contents.
 *
 * Input is HTML the sanitiser wrote (headings carry no attributes of their own); everything
 * outside the headings is copied through byte for byte.
 */

export type Heading = { id: string; level: 2 | 3; text: string };
export type Outlined = { html: string; headings: Heading[] };

const LINKED: ReadonlySet<string> = new Set(['h2', 'h3']);
const PHRASED: ReadonlySet<string> = new Set(['h2', 'h3', 'h4']);

/**
 * Ids the article page itself uses (the layout's skip target, the paywall, related posts, the
 * table of contents): a heading named like one takes the next free suffix instead.
 */
const PAGE_IDS: readonly string[] = [
  'main',
  'site-map',
  'paywall-heading',
  'paywall-benefits',
  'related-heading',
  'toc-heading',
];

const phrases = loadDefaultJapaneseParser();

/**
 * A heading's id: its text with runs of anything but letters and digits (punctuation, spaces,
 * brackets) as one '-', full-width Latin made half-width and lower case, at most 48 characters.
 * A heading with no letters at all (「——」) is `section-N`, N its place among the headings.
 */
export function headingSlug(text: string, place: number): string {
  const slug = Array.from(
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  )
    .slice(0, 48)
    .join('')
    .replace(/-+$/, '');
  return slug || `section-${place}`;
}

/** A heading's inside as read: text (decoded) and the raw markup of its inline tags. */
type Piece = { text: string } | { raw: string };

/** The heading's inside again, a `<wbr>` at each phrase boundary of its whole text. */
function phrasedInside(pieces: readonly Piece[], text: string): string {
  const boundaries = new Set<number>();
  let at = 0;
  for (const phrase of phrases.parse(text).slice(0, -1)) {
    at += phrase.length;
    boundaries.add(at);
  }
  let offset = 0;
  let html = '';
  for (const piece of pieces) {
    if ('raw' in piece) {
      html += piece.raw;
      continue;
    }
    let run = '';
    for (let i = 0; i < piece.text.length; i++) {
      // A boundary at the very start of a piece goes before it (after the previous tag).
      if (boundaries.has(offset + i) && (i > 0 || offset > 0)) {
        html += `${escapeHtml(run)}<wbr>`;
        run = '';
      }
      run += piece.text[i];
    }
    html += escapeHtml(run);
    offset += piece.text.length;
  }
  return html;
}

export function outlineHeadings(html: string): Outlined {
  const headings: Heading[] = [];
  const used = new Set(PAGE_IDS);
  const out: string[] = [];
  let copiedTo = 0; // html before this index is in `out`
  let open: { name: string; start: number; pieces: Piece[]; depth: number } | null = null;
  let place = 0;

  const parser = new Parser(
    {
      onopentag(name) {
        if (open) {
          if (name === open.name) open.depth++;
          open.pieces.push({ raw: html.slice(parser.startIndex, parser.endIndex + 1) });
          return;
        }
        if (!PHRASED.has(name)) return;
        open = { name, start: parser.startIndex, pieces: [], depth: 0 };
      },
      ontext(text) {
        open?.pieces.push({ text });
      },
      onclosetag(name, isImplied) {
        if (!open) return;
        if (name !== open.name || open.depth > 0) {
          if (name === open.name) open.depth--;
          if (!isImplied)
            open.pieces.push({ raw: html.slice(parser.startIndex, parser.endIndex + 1) });
          return;
        }
        const heading = open;
        open = null;
        const end = isImplied ? parser.startIndex : parser.endIndex + 1;
        const text = heading.pieces
          .map((piece) => ('text' in piece ? piece.text : ''))
          .join('')
          .replace(/\s+/g, ' ')
          .trim();
        const plain = heading.pieces.map((piece) => ('text' in piece ? piece.text : '')).join('');
        let attributes = '';
        if (LINKED.has(heading.name)) {
          place++;
          const base = headingSlug(text, place);
          let id = base;
          for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
          used.add(id);
          headings.push({ id, level: heading.name === 'h2' ? 2 : 3, text });
          attributes = ` id="${escapeHtml(id)}"`;
        }
        out.push(
          html.slice(copiedTo, heading.start),
          `<${heading.name}${attributes}>${phrasedInside(heading.pieces, plain)}</${heading.name}>`,
        );
        copiedTo = end;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  out.push(html.slice(copiedTo));
  return { html: out.join(''), headings };
}

/** How many headings an article needs before a table of contents helps more than it takes. */
export const TOC_MIN_HEADINGS = 3;

export type TocEntry = Heading & { children: Heading[] };

/**
 * The headings as a table of contents: each h2 with the h3s under it; an h3 before any h2
 * stands at the top level. Empty below TOC_MIN_HEADINGS headings.
 */
export function tableOfContents(headings: readonly Heading[]): TocEntry[] {
  if (headings.length < TOC_MIN_HEADINGS) return [];
  const entries: TocEntry[] = [];
  for (const heading of headings) {
    const parent = entries.at(-1);
    if (heading.level === 3 && parent?.level === 2) parent.children.push(heading);
    else entries.push({ ...heading, children: [] });
  }
  return entries;
}
