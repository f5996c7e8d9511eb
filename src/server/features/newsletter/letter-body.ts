import 'server-only';
import { ElementType, parseDocument } from 'htmlparser2';
import {
  EMBED_PROVIDER_LABELS,
  YOUTUBE_THUMBNAIL_ORIGIN,
  embedPageUrl,
  playerEmbed,
  postEmbed,
} from '@/lib/cms/embeds';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * A post's rich text as a letter's body: the same content as e-mail-safe HTML (every style
 * inline, every URL absolute, no iframe) and as plain text, from one walk so the two parts
 * always say the same thing.
 *
 * The input is sanitised here first (it may come from a hosted CMS), so only the sanitiser's
 * elements reach the walk. Players become a linked thumbnail (YouTube, whose thumbnails have a
 * public URL) or a plain link (Vimeo: its thumbnail needs an API call); X and Instagram posts a
 * plain link. Mail clients run no scripts and load no iframes.
 */

type AnyNode = ReturnType<typeof parseDocument>['children'][number];
type DomElement = Extract<AnyNode, { attribs: Record<string, string> }>;

export const LETTER_FONT =
  "'Hiragino Sans','Hiragino Kaku Gothic ProN','Noto Sans JP','Noto Sans CJK JP','Yu Gothic','Meiryo',sans-serif";
/** Dark text on white, never pure black on pure white: clients that invert keep the contrast. */
export const LETTER_COLORS = {
  text: '#1f1f1f',
  muted: '#5c5c5c',
  rule: '#dddddd',
  link: '#1a4fd6',
  quote: '#f4f4f2',
} as const;

/** A URL from the body made absolute against the site; null for anything not http(s)/mailto. */
export function absoluteUrl(value: string | undefined, siteUrl: string): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value, `${siteUrl}/`);
  } catch {
    return null;
  }
  return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
}

const BLOCK_STYLE: Readonly<Record<string, string>> = {
  p: 'margin:0 0 1.5em;font-size:16px;line-height:1.9',
  h2: 'margin:2em 0 .8em;font-size:21px;line-height:1.5;font-weight:700',
  h3: 'margin:1.8em 0 .6em;font-size:18px;line-height:1.5;font-weight:700',
  h4: 'margin:1.5em 0 .5em;font-size:16px;line-height:1.6;font-weight:700',
  ul: 'margin:0 0 1.5em;padding:0 0 0 1.4em;font-size:16px;line-height:1.9',
  ol: 'margin:0 0 1.5em;padding:0 0 0 1.6em;font-size:16px;line-height:1.9',
  li: 'margin:0 0 .4em',
  blockquote: `margin:0 0 1.5em;padding:12px 16px;border-left:4px solid ${LETTER_COLORS.rule};background:${LETTER_COLORS.quote};color:${LETTER_COLORS.text}`,
  figure: 'margin:0 0 1.5em',
  figcaption: `margin:8px 0 0;font-size:13px;line-height:1.7;color:${LETTER_COLORS.muted}`,
  pre: `margin:0 0 1.5em;padding:12px;background:${LETTER_COLORS.quote};font-size:13px;line-height:1.6;white-space:pre-wrap;word-break:break-all`,
  table: 'margin:0 0 1.5em;border-collapse:collapse;width:100%;font-size:14px;line-height:1.7',
  th: `border:1px solid ${LETTER_COLORS.rule};padding:6px 8px;text-align:left;vertical-align:top`,
  td: `border:1px solid ${LETTER_COLORS.rule};padding:6px 8px;vertical-align:top`,
};

const INLINE_STYLE: Readonly<Record<string, string>> = {
  a: `color:${LETTER_COLORS.link};text-decoration:underline;word-break:break-all`,
  code: "font-family:Menlo,Consolas,'Noto Sans Mono CJK JP',monospace;font-size:.9em",
};

/** Kept as they are, without attributes. */
const PLAIN_INLINE = new Set(['strong', 'em', 'b', 'i', 'u', 's', 'thead', 'tbody', 'tr']);

export const RULE_HTML = `<hr style="border:none;border-top:1px solid ${LETTER_COLORS.rule};margin:2em 0">`;
const TEXT_RULE = '――――――――';

type Out = { html: string; text: string };

const block = (text: string) => `\n\n${text.trim()}\n\n`;

function isElement(node: AnyNode): node is DomElement {
  return 'attribs' in node;
}

/** A YouTube video's thumbnail (public, no API key), or null for another player. */
function youtubeThumbnail(playerUrl: string): string | null {
  const match = /^https:\/\/www\.youtube\.com\/embed\/([A-Za-z0-9_-]{11})(?:\?|$)/.exec(playerUrl);
  return match ? `${YOUTUBE_THUMBNAIL_ORIGIN}/vi/${match[1]}/hqdefault.jpg` : null;
}

/** A link on its own line, for embeds: `label` then the URL. */
function linkBlock(label: string, url: string): Out {
  return {
    html: `<p style="${BLOCK_STYLE.p}"><a href="${escapeHtml(url)}" style="${INLINE_STYLE.a}">${escapeHtml(label)}</a></p>`,
    text: block(`${label}\n${url}`),
  };
}

function playerOut(src: string, title: string | undefined): Out | null {
  const embed = playerEmbed(src);
  if (!embed) return null;
  const page = embedPageUrl(embed);
  const label = `▶ ${title?.trim() && !/video player/i.test(title) ? `動画「${title.trim()}」` : `${EMBED_PROVIDER_LABELS[embed.provider]}の動画`}を見る`;
  const thumbnail = youtubeThumbnail(embed.url);
  if (!thumbnail) return linkBlock(label, page);
  return {
    html:
      `<p style="margin:0 0 1.5em"><a href="${escapeHtml(page)}" style="display:block;text-decoration:none;color:${LETTER_COLORS.text}">` +
      `<img src="${escapeHtml(thumbnail)}" alt="${escapeHtml(label)}" width="480" style="display:block;width:100%;max-width:480px;height:auto;border:0">` +
      `<span style="display:block;margin-top:8px;font-size:14px;color:${LETTER_COLORS.link};text-decoration:underline">${escapeHtml(label)}</span></a></p>`,
    text: block(`${label}\n${page}`),
  };
}

/** An X or Instagram post figure (embeds.ts's one spelling), as a plain link. */
function postFigureOut(figure: DomElement): Out | null {
  const elements = figure.children.filter(isElement);
  const [link] = elements;
  if (elements.length !== 1 || !link || link.name !== 'a') return null;
  const embed = postEmbed(link.attribs.href ?? '');
  if (!embed) return null;
  return linkBlock(`${EMBED_PROVIDER_LABELS[embed.provider]}の投稿を見る`, embed.url);
}

function childrenOut(nodes: readonly AnyNode[], siteUrl: string, pre: boolean): Out {
  let html = '';
  let text = '';
  for (const node of nodes) {
    const out = nodeOut(node, siteUrl, pre);
    html += out.html;
    text += out.text;
  }
  return { html, text };
}

function nodeOut(node: AnyNode, siteUrl: string, pre: boolean): Out {
  if (!isElement(node)) {
    if (node.type !== ElementType.Text) return { html: '', text: '' };
    const data = (node as { data: string }).data;
    return { html: escapeHtml(data), text: pre ? data : data.replace(/\s+/g, ' ') };
  }
  const name = node.name;
  const inner = () => childrenOut(node.children, siteUrl, pre || name === 'pre');
  switch (name) {
    case 'br':
      return { html: '<br>', text: '\n' };
    case 'hr':
      return { html: RULE_HTML, text: block(TEXT_RULE) };
    case 'img': {
      const src = absoluteUrl(node.attribs.src, siteUrl);
      if (!src) return { html: '', text: '' };
      const alt = node.attribs.alt ?? '';
      const width = Number(node.attribs.width);
      return {
        html: `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${width > 0 ? ` width="${Math.min(width, 600)}"` : ''} style="display:block;width:100%;max-width:${width > 0 ? Math.min(width, 600) : 600}px;height:auto;border:0;margin:0 0 8px">`,
        text: alt ? block(`［画像：${alt}］`) : '',
      };
    }
    case 'iframe':
      return playerOut(node.attribs.src ?? '', node.attribs.title) ?? { html: '', text: '' };
    case 'figure': {
      const post = postFigureOut(node);
      if (post) return post;
      const out = inner();
      return { html: `<div style="${BLOCK_STYLE.figure}">${out.html}</div>`, text: out.text };
    }
    case 'a': {
      const out = inner();
      const href = absoluteUrl(node.attribs.href, siteUrl);
      if (!href) return out;
      const label = out.text.trim();
      const shown = href.replace(/^mailto:/, '');
      return {
        html: `<a href="${escapeHtml(href)}" style="${INLINE_STYLE.a}">${out.html}</a>`,
        text: !label || label === shown ? shown : `${out.text}（${shown}）`,
      };
    }
    case 'li': {
      const out = inner();
      return {
        html: `<li style="${BLOCK_STYLE.li}">${out.html}</li>`,
        text: `\n${node.parent && isElement(node.parent) && node.parent.name === 'ol' ? `${node.parent.children.filter(isElement).indexOf(node) + 1}. ` : '・'}${out.text.trim()}`,
      };
    }
    case 'blockquote': {
      const out = inner();
      const quoted = out.text
        .trim()
        .split('\n')
        .map((line) => `> ${line}`.trimEnd())
        .join('\n');
      return {
        html: `<blockquote style="${BLOCK_STYLE.blockquote}">${out.html}</blockquote>`,
        text: block(quoted),
      };
    }
    case 'h2':
    case 'h3':
    case 'h4': {
      const out = inner();
      return {
        html: `<${name} style="${BLOCK_STYLE[name]}">${out.html}</${name}>`,
        text: block(`${name === 'h2' ? '■' : '□'} ${out.text.trim()}`),
      };
    }
    case 'td':
    case 'th': {
      const out = inner();
      const span = ['colspan', 'rowspan']
        .filter((a) => /^[1-9][0-9]{0,2}$/.test(node.attribs[a] ?? ''))
        .map((a) => ` ${a}="${node.attribs[a]}"`)
        .join('');
      return {
        html: `<${name}${span} style="${BLOCK_STYLE[name]}">${out.html}</${name}>`,
        text: `${out.text.trim()} / `,
      };
    }
    case 'tr': {
      const out = inner();
      return { html: `<tr>${out.html}</tr>`, text: `\n${out.text.replace(/ \/ $/, '')}` };
    }
    case 'code': {
      const out = inner();
      return { html: `<code style="${INLINE_STYLE.code}">${out.html}</code>`, text: out.text };
    }
    default: {
      const out = inner();
      if (PLAIN_INLINE.has(name)) return { html: `<${name}>${out.html}</${name}>`, text: out.text };
      const style = BLOCK_STYLE[name];
      if (!style) return out; // an element the sanitiser let through without a letter style
      const isBlock = ['p', 'pre', 'ul', 'ol', 'table', 'figcaption'].includes(name);
      const html =
        name === 'table'
          ? `<table role="presentation" style="${style}">${out.html}</table>`
          : `<${name} style="${style}">${out.html}</${name}>`;
      return { html, text: isBlock ? block(out.text) : out.text };
    }
  }
}

/** Three or more line breaks become two; every line trimmed. */
export function tidyText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A rich-text body as the letter's HTML (inline styles, absolute URLs) and plain text. */
export function letterBody(richText: string, siteUrl: string): Out {
  const document = parseDocument(sanitizeRichText(richText));
  const out = childrenOut(document.children, siteUrl.replace(/\/+$/, ''), false);
  return { html: out.html, text: tidyText(out.text) };
}
