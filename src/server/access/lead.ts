import 'server-only';
import { isMembersDivider } from '@/server/cms/richtext/members-divider';
import { NON_TEXT_TAGS, RUBY_READING_TAGS, STOP, walkHtml } from '@/lib/text/html-to-text';
import { sanitizeRichText } from '@/server/cms/richtext/sanitize';

/**
 * The lead of a rich-text body: what a reader without access sees of a members' item.
 *
 * - With the members' divider (MEMBERS_DIVIDER): everything before it, unless that is longer
 *   than LEAD_MAX_CHARS; then the first LEAD_MAX_CHARS characters.
 * - Without it: the first LEAD_MAX_CHARS characters, and never more than half of the body's
 *   text, so a short members' body is never shown whole.
 * - A cut falls inside a block when it must (a long paragraph, list, table or quote) and ends
 *   with '…'. A plain `<hr>` is only a rule.
 * - Pictures, figures and embedded players are left out: they may be what members pay for.
 *
 * The input may be any HTML (a hosted CMS does not sanitise); the output is sanitised, with
 * every element closed. Surfaces do not call this: they render what post-access.ts gives them.
 */

/** Characters of text in a lead, '…' included. */
export const LEAD_MAX_CHARS = 300;
const ELLIPSIS = '…';

/** Left out with everything inside them. */
const OUTSIDE_LEAD: ReadonlySet<string> = new Set([
  'figure',
  'img',
  'picture',
  'iframe',
  'video',
  'audio',
  ...NON_TEXT_TAGS,
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

type Parsed = {
  root: Element;
  /** Text before the divider, or in the whole body without one. */
  total: number;
  divider: boolean;
};

function parse(html: string): Parsed {
  const root: Element = { name: '', attribs: {}, children: [] };
  const stack: Element[] = [root];
  let total = 0;
  let divider = false;
  walkHtml(
    html,
    {
      open(name, attribs) {
        if (isMembersDivider(name, attribs)) {
          divider = true;
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
          const n = joinedLength(last, text);
          total += n - last.n;
          last.text += text;
          last.n = n;
        } else {
          const n = textLength(text);
          total += n;
          siblings.push({ text, n });
        }
        // From here the lead is the first LEAD_MAX_CHARS, divider or not: the rest is not needed.
        if (total >= 2 * LEAD_MAX_CHARS) return STOP;
      },
      close() {
        if (stack.length > 1) stack.pop();
      },
    },
    { skip: OUTSIDE_LEAD },
  );
  return { root, total, divider };
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

// The sanitiser reads what this writes: a name that could not be written back as it was read
// (a quote, say) is left out rather than let it change the markup around it.
const NAME = /^[a-z][a-z0-9-]*$/;

function openTag(element: Element): string {
  const attributes = Object.entries(element.attribs)
    .filter(([name]) => NAME.test(name))
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  return `<${element.name}${attributes}>`;
}

/** Serialises nodes; with a limit, stops at `limit` characters of text and adds '…'. */
function render(nodes: readonly Node[], cut: { used: number; limit: number; done: boolean }) {
  let html = '';
  for (const node of nodes) {
    if (cut.done) break;
    if ('text' in node) {
      if (cut.used + node.n >= cut.limit) {
        html += escapeText(headOf(node.text, cut.limit - cut.used)) + ELLIPSIS;
        cut.done = true;
      } else {
        html += escapeText(node.text);
        cut.used += node.n;
      }
    } else if (!NAME.test(node.name)) {
      html += render(node.children, cut);
    } else if (VOID.has(node.name)) {
      html += openTag(node);
    } else {
      html += `${openTag(node)}${render(node.children, cut)}</${node.name}>`;
    }
  }
  return html;
}

export function leadOf(html: string): string {
  const { root, total, divider } = parse(html);
  const budget = divider ? LEAD_MAX_CHARS : Math.min(LEAD_MAX_CHARS, Math.floor(total / 2));
  if (budget <= 1) return '';
  // Within budget (only ever with the divider), the lead is all that stands before it.
  const limit = total <= budget ? Infinity : budget - ELLIPSIS.length;
  return sanitizeRichText(render(root.children, { used: 0, limit, done: false }));
}

/** Characters of text in `html` as a 字数 counts them: no white space, no ruby readings. */
function proseLength(html: string): number {
  let n = 0;
  walkHtml(
    html,
    {
      text(text) {
        n += Array.from(text.replace(/\s+/g, '')).length;
      },
    },
    { skip: new Set([...OUTSIDE_LEAD, ...RUBY_READING_TAGS]) },
  );
  return n;
}

/**
 * How many characters of text a reader without access does not see: the body's text less its
 * lead's (the lead's closing '…' is not the author's). Only this count, rounded for the paywall
 * (remainingCharsLabel in src/lib/access/access-label.ts), leaves the server, never the text.
 */
export function gatedLength(html: string, lead: string): number {
  const shown =
    proseLength(lead) -
    (lead
      .replace(/<[^>]*>/g, '')
      .trimEnd()
      .endsWith(ELLIPSIS)
      ? 1
      : 0);
  return Math.max(0, proseLength(html) - Math.max(0, shown));
}
