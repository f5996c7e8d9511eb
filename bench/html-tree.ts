/**
 * A page's <body> as a tree of React element arguments ([tag, props, children]), so that a bare
 * App Router page can render the same HTML with React on every request (bench/render.ts): the
 * framework then does the same work per element as it does for the site's own components.
 * The site's scripts (the framework's own payload) are left out: the bare app writes its own.
 */
import { Parser } from 'htmlparser2';

export type TreeNode = string | [tag: string, props: Record<string, unknown>, children: TreeNode[]];

/** Attributes React knows by another name. */
const RENAMED: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  tabindex: 'tabIndex',
  readonly: 'readOnly',
  autoplay: 'autoPlay',
  playsinline: 'playsInline',
  allowfullscreen: 'allowFullScreen',
  novalidate: 'noValidate',
  formnovalidate: 'formNoValidate',
  itemscope: 'itemScope',
  nomodule: 'noModule',
  crossorigin: 'crossOrigin',
  referrerpolicy: 'referrerPolicy',
  srcset: 'srcSet',
  fetchpriority: 'fetchPriority',
  maxlength: 'maxLength',
  minlength: 'minLength',
  autocomplete: 'autoComplete',
  enterkeyhint: 'enterKeyHint',
  inputmode: 'inputMode',
  datetime: 'dateTime',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  'accept-charset': 'acceptCharset',
  'http-equiv': 'httpEquiv',
  'xlink:href': 'xlinkHref',
};

/** Attributes React writes only for a true value (an empty string would drop them). */
const BOOLEAN = new Set([
  'hidden',
  'disabled',
  'checked',
  'selected',
  'open',
  'multiple',
  'readOnly',
  'required',
  'autoPlay',
  'controls',
  'loop',
  'muted',
  'playsInline',
  'allowFullScreen',
  'async',
  'defer',
  'noValidate',
  'formNoValidate',
  'inert',
  'itemScope',
  'default',
  'reversed',
  'noModule',
]);

/** Elements whose text React must be handed as raw HTML. */
const RAW = new Set(['style']);

function styleObject(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim();
    const key = name.startsWith('--')
      ? name
      : name.replace(/^-ms-/, 'ms-').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    out[key] = declaration.slice(colon + 1).trim();
  }
  return out;
}

function propsOf(attribs: Record<string, string>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attribs)) {
    const key = RENAMED[name] ?? name;
    if (key === 'style') props.style = styleObject(value);
    else if (BOOLEAN.has(key)) props[key] = true;
    else props[key] = value;
  }
  return props;
}

/** The children of the document's <body>, without its scripts. */
export function bodyTree(html: string): TreeNode[] {
  type Open = { tag: string; props: Record<string, unknown>; children: TreeNode[] };
  const root: Open = { tag: '', props: {}, children: [] };
  const stack: Open[] = [];
  let body: Open | undefined;
  let skipping = 0; // inside a script
  const parser = new Parser(
    {
      onopentag(tag, attribs) {
        if (tag === 'body') {
          body = root;
          stack.push(root);
        } else if (tag === 'script' || skipping > 0) skipping++;
        else if (body) stack.push({ tag, props: propsOf(attribs), children: [] });
      },
      ontext(text) {
        if (skipping > 0 || !body) return;
        // One string per run of text (the parser splits it at entities), as the site wrote it.
        const { children } = stack.at(-1)!;
        const last = children.at(-1);
        if (typeof last === 'string') children[children.length - 1] = last + text;
        else children.push(text);
      },
      onclosetag(tag) {
        if (skipping > 0) {
          skipping--;
          return;
        }
        if (!body || tag === 'body' || tag === 'html') return;
        const open = stack.pop()!;
        const props = RAW.has(open.tag)
          ? {
              ...open.props,
              dangerouslySetInnerHTML: {
                __html: open.children.filter((c) => typeof c === 'string').join(''),
              },
            }
          : open.props;
        stack.at(-1)!.children.push([open.tag, props, RAW.has(open.tag) ? [] : open.children]);
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  if (!body) throw new Error('no <body> in the page');
  return root.children;
}

/** The visible text of a page's body (scripts and styles left out), to check two pages match. */
export function bodyText(html: string): string {
  const text = (nodes: TreeNode[]): string =>
    nodes.map((n) => (typeof n === 'string' ? n : RAW.has(n[0]) ? '' : text(n[2]))).join('');
  return text(bodyTree(html)).replace(/\s+/g, ' ').trim();
}
