import { isMembersDivider } from '@/lib/cms/members-divider';
import {
  NON_TEXT_TAGS,
  RUBY_READING_TAGS,
  STOP,
  htmlToText,
  walkHtml,
} from '@/lib/text/html-to-text';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { LEAD_MAX_CHARS } from '@/lib/access/lead-rule';
import { countCharacters } from '@/lib/reading-time';
import { oncePerFrozen } from '@/lib/once-per-frozen';
import { rememberLast } from '@/lib/remember-last';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * The lead of a rich-text body: what a reader without access sees of a members' item
 * (docs/decisions/029-divider-is-the-lead.md). The editor decides it; this only reads it.
 *
 * - With the members' divider (MEMBERS_DIVIDER): exactly what stands above it, whatever its
 *   length, figures, embeds and tables included. The editor put the divider there, and the
 *   console says so beside it. Only a hosted CMS can put the divider inside a block (a quote,
 *   a list, a table); the lead then ends before that block, so no block is ever cut.
 * - Without it: about LEAD_MAX_CHARS characters, and never more than half of the body's text
 *   (a short members' body is never shown whole). The cut falls between blocks or after a
 *   sentence (。！？ outside 「」 and brackets), never inside a quote, table or code block;
 *   only a first paragraph with no sentence end in reach is cut at the cap, ending with '…'.
 *   Pictures, figures and embedded players are left out: nobody chose to show them.
 * - A plain `<hr>` is only a rule.
 *
 * The input may be any HTML (a hosted CMS does not sanitise); the output is sanitised, with
 * every element closed. Surfaces do not call this: they render what post-access.ts gives them.
 */

export { LEAD_MAX_CHARS };
const ELLIPSIS = '…';

/** Left out of a lead without the divider, with everything inside them. */
const MEDIA: ReadonlySet<string> = new Set([
  'figure',
  'img',
  'picture',
  'iframe',
  'video',
  'audio',
]);
/** Never in a lead: not prose, and the sanitiser would drop them anyway. */
const NON_TEXT: ReadonlySet<string> = new Set(NON_TEXT_TAGS);
/** Left out of what the paywall counts (gatedLength). */
const UNCOUNTED: ReadonlySet<string> = new Set([...MEDIA, ...NON_TEXT_TAGS, ...RUBY_READING_TAGS]);

/** Blocks that only hold other blocks: a lead may end between their children. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'html',
  'body',
  'main',
  'article',
  'section',
  'aside',
  'header',
  'footer',
  'div',
]);
/** Blocks that hold blocks a lead may end between: list items. */
const LISTS: ReadonlySet<string> = new Set(['ul', 'ol']);
/** Blocks shown whole or not at all. */
const WHOLE: ReadonlySet<string> = new Set([
  'blockquote',
  'table',
  'pre',
  'dl',
  'details',
  ...MEDIA,
]);

// htmlparser2 closes these at once; they never have content.
const VOID: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** `n` is the text's length as counted (see textLength), kept so every count agrees. */
type Text = { text: string; n: number };
type Element = { name: string; attribs: Record<string, string>; children: Node[] };
type Node = Element | Text;

/** Characters as a reader sees them: a run of white space is one, white space alone none. */
function textLength(text: string): number {
  return /\S/.test(text) ? Array.from(text.replace(/\s+/g, ' ')).length : 0;
}

/** textLength of `text.text + more`, without reading `text.text` again. */
function joinedLength(text: Text, more: string): number {
  if (!/\S/.test(more) && text.n === 0) return 0;
  const before = text.n > 0 ? text.n : text.text === '' ? 0 : 1; // white space alone is one
  const after = Array.from(more.replace(/\s+/g, ' ')).length;
  const merged = /\s/.test(text.text.at(-1) ?? '') && /^\s/.test(more) ? 1 : 0;
  return before + after - merged;
}

/** The characters of a text as textLength counts them: a run of white space is one. */
function* countedChars(text: string): Generator<string> {
  let inSpace = false;
  for (const ch of text) {
    const space = /\s/.test(ch);
    if (!(space && inSpace)) yield ch;
    inSpace = space;
  }
}

/** The first `n` characters of a text, counted as textLength counts them. */
function headOf(text: string, n: number): string {
  let count = 0;
  let out = '';
  let inSpace = false;
  for (const ch of text) {
    const space = /\s/.test(ch);
    if (!(space && inSpace)) {
      if (count === n) break;
      count++;
    }
    inSpace = space;
    out += ch;
  }
  return out.trimEnd();
}

type Parsed = { root: Element; divider: boolean };

/**
 * Drops, from the tree read so far, the block the divider stands in (and with it everything
 * after the divider): the outermost element around it that is not a wrapper.
 */
function endBeforeBlock(stack: readonly Element[]): void {
  const block = stack.findIndex((element, i) => i > 0 && !WRAPPERS.has(element.name));
  if (block > 0) stack[block - 1]!.children.pop();
}

/** The body as a tree, up to the divider when there is one. */
function parse(html: string): Parsed {
  const root: Element = { name: '', attribs: {}, children: [] };
  const stack: Element[] = [root];
  let divider = false;
  walkHtml(
    html,
    {
      open(name, attribs) {
        if (isMembersDivider(name, attribs)) {
          divider = true;
          endBeforeBlock(stack);
          return STOP;
        }
        const element: Element = { name, attribs: { ...attribs }, children: [] };
        stack.at(-1)!.children.push(element);
        stack.push(element);
      },
      text(text) {
        // Entities arrive as pieces of one text: count the pieces as the whole text.
        const siblings = stack.at(-1)!.children;
        const last = siblings.at(-1);
        if (last && 'text' in last) {
          last.n = joinedLength(last, text);
          last.text += text;
        } else {
          siblings.push({ text, n: textLength(text) });
        }
      },
      close() {
        if (stack.length > 1) stack.pop();
      },
    },
    { skip: NON_TEXT },
  );
  return { root, divider };
}

// The sanitiser reads what this writes: a name that could not be written back as it was read
// (a quote, say) is left out rather than let it change the markup around it.
const NAME = /^[a-z][a-z0-9-]*$/;

function openTag(element: Element): string {
  const attributes = Object.entries(element.attribs)
    .filter(([name]) => NAME.test(name))
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<${element.name}${attributes}>`;
}

/** How a render ends: after `limit` characters of text, with '…' when `ellipsis`. */
type Cut = { used: number; limit: number; ellipsis: boolean; done: boolean };
const WHOLE_CUT = (): Cut => ({ used: 0, limit: Infinity, ellipsis: false, done: false });

/** Serialises nodes, leaving out `skip`, up to the cut. */
function render(nodes: readonly Node[], skip: ReadonlySet<string>, cut: Cut): string {
  let html = '';
  for (const node of nodes) {
    if (cut.done) break;
    if ('text' in node) {
      if (cut.used + node.n >= cut.limit) {
        html += escapeHtml(headOf(node.text, cut.limit - cut.used));
        if (cut.ellipsis) html += ELLIPSIS;
        cut.done = true;
      } else {
        html += escapeHtml(node.text);
        cut.used += node.n;
      }
    } else if (skip.has(node.name)) {
      continue;
    } else if (!NAME.test(node.name)) {
      html += render(node.children, skip, cut);
    } else if (VOID.has(node.name)) {
      html += openTag(node);
    } else {
      html += `${openTag(node)}${render(node.children, skip, cut)}</${node.name}>`;
    }
  }
  return html;
}

/** Characters of text in nodes, leaving out `skip`. */
function countOf(nodes: readonly Node[], skip: ReadonlySet<string>): number {
  let n = 0;
  for (const node of nodes) {
    if ('text' in node) n += node.n;
    else if (!skip.has(node.name)) n += countOf(node.children, skip);
  }
  return n;
}

const SENTENCE_END = /[。！？!?．]/;
const OPENING = /[「『（(“【〈《［]/;
const CLOSING = /[」』）)”】〉》］]/;

/**
 * Where the sentences of a block end, as counts of characters (render's limit), outside any
 * 「」 or brackets: a sentence inside a quotation does not end the lead.
 */
function sentenceEnds(nodes: readonly Node[]): number[] {
  const ends: number[] = [];
  let position = 0;
  let depth = 0;
  const visit = (list: readonly Node[]) => {
    for (const node of list) {
      if (!('text' in node)) {
        if (!MEDIA.has(node.name)) visit(node.children);
        continue;
      }
      if (node.n === 0) continue;
      let count = 0;
      for (const ch of countedChars(node.text)) {
        count++;
        if (OPENING.test(ch)) depth++;
        else if (CLOSING.test(ch)) depth = Math.max(0, depth - 1);
        else if (depth === 0 && SENTENCE_END.test(ch)) ends.push(position + count);
      }
      position += node.n;
    }
  };
  visit(nodes);
  return ends;
}

/** A lead without the divider: whole blocks and sentences within the budget. */
function blocksWithin(
  nodes: readonly Node[],
  state: { used: number; budget: number; done: boolean },
) {
  let html = '';
  for (const node of nodes) {
    if (state.done) break;
    if (!('text' in node) && MEDIA.has(node.name)) continue;
    if (
      !('text' in node) &&
      (WRAPPERS.has(node.name) || LISTS.has(node.name) || !NAME.test(node.name))
    ) {
      const inner = blocksWithin(node.children, state);
      if (inner === '') continue;
      html += NAME.test(node.name) ? `${openTag(node)}${inner}</${node.name}>` : inner;
      continue;
    }
    const n = 'text' in node ? node.n : countOf(node.children, MEDIA);
    if (state.used + n <= state.budget) {
      html += render([node], MEDIA, WHOLE_CUT());
      state.used += n;
      continue;
    }
    // The first block that does not fit ends the lead: after its last sentence in reach, or
    // not at all for a block shown whole only.
    state.done = true;
    if (!('text' in node) && WHOLE.has(node.name)) break;
    const room = state.budget - state.used;
    const end = sentenceEnds([node]).findLast((e) => e <= room);
    if (end !== undefined) {
      html += render([node], MEDIA, { used: 0, limit: end, ellipsis: false, done: false });
    } else if (state.used === 0) {
      html += render([node], MEDIA, {
        used: 0,
        limit: room - ELLIPSIS.length,
        ellipsis: true,
        done: false,
      });
    }
  }
  return html;
}

export function leadOf(html: string): string {
  const { root, divider } = parse(html);
  // The editor's choice, whole: everything above the divider.
  if (divider) return sanitizeRichText(render(root.children, NON_TEXT, WHOLE_CUT()));
  const budget = Math.min(LEAD_MAX_CHARS, Math.floor(countOf(root.children, MEDIA) / 2));
  if (budget <= 1) return '';
  return sanitizeRichText(blocksWithin(root.children, { used: 0, budget, done: false }));
}

/**
 * Characters of text in `html` as a 字数 counts them (countCharacters, decision 032): no white
 * space, no ruby readings, no pictures, embeds or captions. The article's reading time and the
 * paywall's 「残り」 both count this way, so the two always add up.
 */
export function textCharacters(html: string): number {
  return countCharacters(htmlToText(html, { skip: UNCOUNTED }));
}

/**
 * How many characters of text a reader without access does not see: the body's text less its
 * lead's (the lead's closing '…' is not the author's). Only this count, rounded for the paywall
 * (remainingCharsLabel in src/lib/access/access-label.ts), leaves the server, never the text.
 * Pictures, embeds and their captions are not counted, in the lead or out of it.
 */
export function gatedLength(html: string, lead: string): number {
  // Its whole text, captions too: the '…' is the lead's only where nothing follows it.
  const shown = textCharacters(lead) - (htmlToText(lead).trimEnd().endsWith(ELLIPSIS) ? 1 : 0);
  return Math.max(0, textCharacters(html) - Math.max(0, shown));
}

/**
 * textCharacters kept by the text: a gated reader's item is their own copy with the lead for
 * its body (post-access.ts), made on every render, but the lead is the same text each time.
 */
const charactersOfText = rememberLast(64, textCharacters);

/**
 * An item's body measured once per version: its text's characters (the reading time), its lead
 * and what the lead leaves out (the paywall's 「残り」). A frozen item is a version the content
 * client shares between readers, so these are worked out for its first reader only
 * (oncePerFrozen); the lead is the same for every reader it is shown to.
 */
export const bodyCharacters = oncePerFrozen((item: { body?: string }) =>
  charactersOfText(item.body ?? ''),
);

export const bodyLead = oncePerFrozen((item: { body?: string }) => {
  const body = item.body ?? '';
  const lead = leadOf(body);
  return Object.freeze({ lead, gatedChars: gatedLength(body, lead) });
});
