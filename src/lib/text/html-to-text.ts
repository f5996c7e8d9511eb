/**
 * The one place that reads HTML as text. Pure (no DOM, no server): the search index, the
 * version history's diff, the members' lead, share descriptions and every label or emptiness
 * check read markup through here, so they agree on entities (decoded once, all of HTML's named
 * and numeric ones), on implied end tags and on which elements hold no prose.
 */

import { Parser } from 'htmlparser2';

export type Attributes = Readonly<Record<string, string>>;

/** What a visitor answers to stop the walk (the rest of the HTML is not read). */
export const STOP = 'stop';
type Answer = typeof STOP | void;

export type HtmlVisitor = {
  open?(name: string, attribs: Attributes): Answer;
  text?(text: string): Answer;
  close?(name: string): Answer;
};

export type WalkOptions = {
  /** Elements left out with everything inside them (no event for them or their content). */
  skip?: ReadonlySet<string>;
};

/**
 * Calls the visitor for each tag and text of `html`, in order, entities decoded. Void elements
 * are closed at once and implied end tags are reported, so opens and closes always pair up.
 * Text may arrive in pieces (an entity splits it); a visitor that counts joins them.
 */
export function walkHtml(html: string, visitor: HtmlVisitor, options: WalkOptions = {}): void {
  const skip = options.skip ?? new Set<string>();
  let skipped = 0; // depth inside a left-out element
  let stopped = false;
  const answer = (result: Answer) => {
    if (result === STOP) {
      stopped = true;
      parser.pause();
    }
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stopped) return;
        if (skipped > 0 || skip.has(name)) {
          skipped++;
          return;
        }
        answer(visitor.open?.(name, attribs));
      },
      ontext(text) {
        if (stopped || skipped > 0) return;
        answer(visitor.text?.(text));
      },
      onclosetag(name) {
        if (stopped) return;
        if (skipped > 0) {
          skipped--;
          return;
        }
        answer(visitor.close?.(name));
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
}

export type HtmlToTextOptions = WalkOptions & {
  /**
   * What a tag's edge adds to the text, called for opens and closes. Without it a tag adds
   * nothing: `a<b>b</b>` reads `ab`, as a heading's or a table cell's label is matched.
   */
  edge?: (name: string, attribs: Attributes, end: 'open' | 'close') => string;
  /**
   * 'collapse': every run of white space (line breaks and no-break spaces too) one space, and
   * none at either end: one line, for an index, a description or a label. The default keeps
   * the text's own white space, for a count of its characters or a text of several lines.
   */
  whitespace?: 'keep' | 'collapse';
};

/** The text of `html`, entities decoded, each tag's edge replaced as `options.edge` says. */
export function htmlToText(html: string, options: HtmlToTextOptions = {}): string {
  const { edge = () => '' } = options;
  const parts: string[] = [];
  const open: Attributes[] = [];
  walkHtml(
    html,
    {
      open(name, attribs) {
        open.push(attribs);
        parts.push(edge(name, attribs, 'open'));
      },
      text(text) {
        parts.push(text);
      },
      close(name) {
        parts.push(edge(name, open.pop() ?? {}, 'close'));
      },
    },
    options,
  );
  const text = parts.join('');
  return options.whitespace === 'collapse' ? text.replace(/\s+/g, ' ').trim() : text;
}

/** Dropped with their content: code, raw text and fallback markup are not article prose. */
export const NON_TEXT_TAGS: readonly string[] = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'title',
  'object',
  'embed',
  'svg',
  'math',
];

/** Ruby readings: 漢字<rt>かんじ</rt> reads as 漢字. */
export const RUBY_READING_TAGS: readonly string[] = ['rt', 'rp'];
