/**
 * Clipboard HTML from Word, Google Docs and web pages, cut down to the semantic markup the
 * editor's schema reads: styles that mean bold, italic, underline or strike become elements,
 * Word's list paragraphs become real lists, and everything else presentational (classes,
 * styles, Office namespaces, conditional comments, empty paragraphs) is dropped. The schema's
 * own parse rules do the rest; this runs first so they see clean input.
 */

const DROPPED_WITH_CONTENT =
  'script, style, meta, link, title, xml, template, noscript, object, colgroup';

const KEPT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  iframe: ['src', 'title', 'width', 'height'],
  hr: ['data-members-divider'],
};

const HEADING_FOR: Readonly<Record<string, string>> = { h1: 'h2', h5: 'h4', h6: 'h4' };

export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = doc.body;
  convertWordLists(body);
  for (const element of [...body.querySelectorAll(DROPPED_WITH_CONTENT)]) element.remove();
  removeComments(body);
  // Office namespaced elements (<o:p>, <w:sdt>, <v:shape>): the text stays, the tag goes.
  for (const element of [...body.querySelectorAll('*')].filter((e) => e.localName.includes(':'))) {
    unwrap(element);
  }
  for (const element of [...body.querySelectorAll('b, strong')]) {
    // Google Docs wraps the whole clipboard in <b style="font-weight:normal" id="docs-internal-guid-…">.
    if (isNormalWeight(element as HTMLElement)) unwrap(element);
  }
  for (const element of [...body.querySelectorAll('span, font')]) {
    replaceStyledSpan(element as HTMLElement);
  }
  for (const element of [...body.querySelectorAll('p')]) {
    if (/\bMsoTitle\b/.test(element.className)) rename(element, 'h2');
  }
  for (const [from, to] of Object.entries(HEADING_FOR)) {
    for (const element of [...body.querySelectorAll(from)]) rename(element, to);
  }
  for (const element of [...body.querySelectorAll('*')]) keepOnlySemanticAttributes(element);
  removeEmptyBlocks(body);
  for (const node of [...body.childNodes]) {
    if (node.nodeType === 3 && !/\S/.test(node.textContent ?? '')) node.remove();
  }
  return body.innerHTML.trim();
}

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

function rename(element: Element, tag: string): Element {
  const renamed = element.ownerDocument.createElement(tag);
  for (const { name, value } of [...element.attributes]) renamed.setAttribute(name, value);
  renamed.append(...element.childNodes);
  element.replaceWith(renamed);
  return renamed;
}

function removeComments(root: Element): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

function isNormalWeight(element: HTMLElement): boolean {
  const weight = element.style.fontWeight.trim().toLowerCase();
  return weight === 'normal' || weight === '400' || /^docs-internal-guid/.test(element.id);
}

function isBold(style: CSSStyleDeclaration): boolean {
  return /^(bold|bolder|[6-9]00)$/.test(style.fontWeight.trim().toLowerCase());
}

/**
 * A span's inline style as elements: Google Docs marks bold and italic only this way. Each
 * meaning becomes one wrapper; a span that means nothing is unwrapped.
 */
function replaceStyledSpan(span: HTMLElement): void {
  const style = span.style;
  const decoration = `${style.textDecoration} ${style.textDecorationLine}`.toLowerCase();
  const wrappers = [
    isBold(style) ? 'strong' : null,
    style.fontStyle.toLowerCase() === 'italic' ? 'em' : null,
    // A link's underline is how links look, not emphasis.
    decoration.includes('underline') && !span.closest('a') ? 'u' : null,
    decoration.includes('line-through') ? 's' : null,
  ].filter((tag): tag is string => tag !== null);
  if (wrappers.length === 0 || !/\S/.test(span.textContent ?? '')) {
    unwrap(span);
    return;
  }
  const doc = span.ownerDocument;
  const outer = doc.createElement(wrappers[0]!);
  let inner = outer;
  for (const tag of wrappers.slice(1)) {
    const next = doc.createElement(tag);
    inner.append(next);
    inner = next;
  }
  inner.append(...span.childNodes);
  span.replaceWith(outer);
}

// ProseMirror marks its own clipboard with this, so a copy within the editor pastes with the
// same structure (the rest of a list item, not a new paragraph).
const PROSEMIRROR_SLICE = 'data-pm-slice';

function keepOnlySemanticAttributes(element: Element): void {
  const kept = KEPT_ATTRIBUTES[element.localName] ?? [];
  for (const { name } of [...element.attributes]) {
    if (!kept.includes(name) && name !== PROSEMIRROR_SLICE) element.removeAttribute(name);
  }
  if (element.localName === 'a') {
    const href = element.getAttribute('href') ?? '';
    // Word's own bookmarks and local files are not links a reader can follow.
    if (!/^(https?:|mailto:|\/[^/\\]|#)/i.test(href.trim())) unwrap(element);
  }
  if (element.localName === 'img' && !/^https?:/i.test(element.getAttribute('src') ?? '')) {
    // file:///C:/… from Word, data: URIs: nothing the site could show.
    element.remove();
  }
}

const EMPTY_BLOCKS = 'p, h2, h3, h4, li, blockquote';

function removeEmptyBlocks(body: HTMLElement): void {
  for (const element of [...body.querySelectorAll(EMPTY_BLOCKS)].reverse()) {
    const blank = !/[^\s\u00a0]/.test(element.textContent ?? '');
    if (blank && !element.querySelector('img, iframe, hr')) element.remove();
  }
  // Docs puts <br> between blocks at the top level: blank lines, not content.
  for (const br of [...body.children].filter((e) => e.localName === 'br')) br.remove();
}

// --- Word lists -------------------------------------------------------------------------------

const WORD_LIST_LEVEL = /mso-list:\s*l(\d+)\s+level(\d+)/i;
const ORDERED_MARKER =
  /^[\s\u00a0]*(?:[(（]?[0-9０-９]+[.)．）]|[a-zA-Z][.)]|[ivxlcdm]+[.)]|[①-⑳])/i;

type WordListItem = { paragraph: Element; list: string; level: number; ordered: boolean };

/**
 * Word writes a list as paragraphs styled `mso-list:l0 level1 lfo1`, the bullet or number as
 * text between `<![if !supportLists]>` and `<![endif]>`. They become nested <ul>/<ol>.
 */
function convertWordLists(body: HTMLElement): void {
  const items = new Map<Element, WordListItem>();
  for (const paragraph of body.querySelectorAll('p, h1, h2, h3, h4, h5, h6')) {
    const match = WORD_LIST_LEVEL.exec(paragraph.getAttribute('style') ?? '');
    if (!match) continue;
    const marker = takeWordMarker(paragraph);
    items.set(paragraph, {
      paragraph,
      list: match[1]!,
      level: Number(match[2]),
      ordered: ORDERED_MARKER.test(marker),
    });
  }
  const done = new Set<Element>();
  for (const item of items.values()) {
    if (done.has(item.paragraph)) continue;
    const run = [item];
    let next = nextElementSkippingBlank(item.paragraph);
    // One Word list (l0, l1, …) is one list; the next starts a new one.
    while (next && items.get(next)?.list === item.list) {
      run.push(items.get(next)!);
      next = nextElementSkippingBlank(next);
    }
    for (const member of run) done.add(member.paragraph);
    buildList(run);
  }
}

function nextElementSkippingBlank(element: Element): Element | null {
  let node = element.nextSibling;
  while (node && node.nodeType !== 1) {
    if (node.nodeType === 3 && /\S/.test(node.textContent ?? '')) return null;
    node = node.nextSibling;
  }
  return node as Element | null;
}

/** Removes the marker Word writes before the text and returns its text. */
function takeWordMarker(paragraph: Element): string {
  let marker = '';
  const ignored = paragraph.querySelector(
    '[style*="mso-list:Ignore" i], [style*="mso-list: Ignore" i]',
  );
  const walker = paragraph.ownerDocument.createTreeWalker(paragraph, NodeFilter.SHOW_COMMENT);
  let start: Node | null = null;
  let end: Node | null = null;
  while (walker.nextNode()) {
    const data = (walker.currentNode as Comment).data.trim();
    if (!start && /^\[if !supportLists\]/i.test(data)) start = walker.currentNode;
    else if (start && /^\[endif\]/i.test(data)) {
      end = walker.currentNode;
      break;
    }
  }
  if (start && end && start.parentNode === end.parentNode) {
    const range = paragraph.ownerDocument.createRange();
    range.setStartBefore(start);
    range.setEndAfter(end);
    marker = range.toString();
    range.deleteContents();
  } else if (ignored) {
    const holder = ignored.parentElement?.closest('span') ?? ignored;
    marker = holder.textContent ?? '';
    holder.remove();
  }
  return marker;
}

function buildList(run: WordListItem[]): void {
  const first = run[0]!.paragraph;
  const doc = first.ownerDocument;
  const stack: { level: number; list: Element }[] = [];
  let root: Element | null = null;
  for (const { paragraph, level, ordered } of run) {
    while (stack.length > 0 && stack.at(-1)!.level > level) stack.pop();
    let top = stack.at(-1);
    if (!top || top.level < level) {
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      const parentItem = top?.list.lastElementChild;
      if (parentItem) parentItem.append(list);
      else if (!root) root = list;
      else root.append(list);
      top = { level, list };
      stack.push(top);
    }
    const item = doc.createElement('li');
    item.append(...paragraph.childNodes);
    top.list.append(item);
  }
  first.before(root!);
  for (const { paragraph } of run) paragraph.remove();
}
