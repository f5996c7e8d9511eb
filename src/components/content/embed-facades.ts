import 'server-only';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import {
  EMBED_PROVIDER_LABELS,
  type Embed,
  embedPageUrl,
  type PlayerProvider,
  playerEmbed,
  postEmbed,
} from '@/lib/cms/embeds';
import { escapeHtml } from '@/lib/text/escape-html';
import styles from './rich-text.module.css';

/**
 * Embeds in a sanitised body, rendered as facades: nothing is requested from YouTube, Vimeo,
 * X or Instagram until the reader asks.
 *
 * - A player (`<iframe>`) becomes a play button linking to the video's own page, so it works
 *   without JavaScript; embed-facade-loader.client.tsx swaps in the player on click.
 * - An X or Instagram post (embeds.ts) becomes a card linking to the post: their scripts
 *   never load (the site's CSP would refuse them anyway).
 *
 * The input must already be sanitised: this only replaces recognised embeds with markup built
 * here from URLs re-checked by embeds.ts, and writes everything else back as it was parsed.
 */

// htmlparser2's own node types (domhandler, which defines them, is only its dependency).
type AnyNode = ReturnType<typeof parseDocument>['children'][number];
type DomElement = Extract<AnyNode, { attribs: Record<string, string> }>;

export type FacadeHtml = {
  html: string;
  /** True when a player facade is in it: the page needs the click-to-load script. */
  hasPlayers: boolean;
};

function attributes(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
}

function isElement(node: AnyNode | null): node is DomElement {
  return node !== null && 'attribs' in node;
}

/** A title worth reading out; players' generic defaults ("YouTube video player") are not. */
function playerTitle(provider: PlayerProvider, title: string | undefined): string {
  const label = EMBED_PROVIDER_LABELS[provider];
  const generic = !title || /video player|^(youtube|vimeo)$|の動画$/i.test(title.trim());
  return generic ? `${label}の動画` : title.trim();
}

export function playerFacadeHtml(
  embed: Embed & { provider: PlayerProvider },
  title?: string,
): string {
  const label = EMBED_PROVIDER_LABELS[embed.provider];
  const name = playerTitle(embed.provider, title);
  return (
    `<span${attributes({ class: styles.player ?? '' })}>` +
    `<a${attributes({
      class: styles.playerLink ?? '',
      href: embedPageUrl(embed),
      'data-embed-src': embed.url,
      'data-embed-title': name,
    })}>` +
    `<span${attributes({ class: styles.playerIcon ?? '', 'aria-hidden': 'true' })}>▶</span>` +
    `<span${attributes({ class: styles.playerText ?? '' })}>${escapeHtml(
      name === `${label}の動画` ? `${label}の動画を再生する` : `動画「${name}」を再生する`,
    )}</span>` +
    `<span${attributes({ class: styles.playerNote ?? '' })}>${escapeHtml(
      `再生すると ${label} のプレーヤーを読み込みます`,
    )}</span>` +
    `</a></span>`
  );
}

function postText(embed: Embed): string {
  const url = new URL(embed.url);
  const [first, second] = url.pathname.split('/').filter(Boolean);
  if (embed.provider === 'x') return `@${first} さんの投稿を X で見る`;
  if (first === 'reel') return 'Instagram のリールを見る';
  return second ? 'Instagram の投稿を見る' : 'Instagram で見る';
}

export function postFacadeHtml(embed: Embed): string {
  const url = new URL(embed.url);
  return (
    `<figure${attributes({ class: styles.post ?? '' })}>` +
    `<a${attributes({ class: styles.postLink ?? '', href: embed.url })}>` +
    `<span${attributes({ class: styles.postProvider ?? '' })}>${escapeHtml(
      EMBED_PROVIDER_LABELS[embed.provider],
    )}</span>` +
    `<span${attributes({ class: styles.postText ?? '' })}>${escapeHtml(postText(embed))}</span>` +
    `<span${attributes({ class: styles.postUrl ?? '' })}>${escapeHtml(
      `${url.host}${url.pathname}`,
    )}</span>` +
    `</a></figure>`
  );
}

/** The post a figure stands for: nothing in it but one link to a canonical post URL. */
function postInFigure(figure: DomElement): Embed | null {
  const elements = figure.children.filter(isElement);
  const [link] = elements;
  if (elements.length !== 1 || !link || link.name !== 'a') return null;
  if (link.children.some(isElement)) return null;
  const stray = figure.children.some(
    (node) =>
      node !== link && (node.type !== ElementType.Text || /\S/.test(DomUtils.textContent(node))),
  );
  return stray ? null : postEmbed(link.attribs.href ?? '');
}

function replaceWith(node: DomElement, html: string): void {
  const [replacement] = parseDocument(html).children;
  if (replacement) DomUtils.replaceElement(node, replacement);
}

export function withEmbedFacades(sanitizedHtml: string): FacadeHtml {
  // Most bodies have no embed: leave them exactly as they are.
  if (!/<(iframe|figure)\b/i.test(sanitizedHtml)) return { html: sanitizedHtml, hasPlayers: false };
  const document = parseDocument(sanitizedHtml);
  let hasPlayers = false;
  let changed = false;
  for (const element of DomUtils.findAll(
    (node) => node.name === 'iframe' || node.name === 'figure',
    document.children,
  )) {
    if (element.name === 'iframe') {
      const embed = playerEmbed(element.attribs.src ?? '');
      // Inside a link the facade's own link would break it apart: leave it a plain link.
      const inLink = hasAncestor(element, 'a');
      if (embed && !inLink) {
        replaceWith(element, playerFacadeHtml(embed, element.attribs.title));
        hasPlayers = true;
      } else {
        DomUtils.removeElement(element);
      }
      changed = true;
    } else {
      const embed = postInFigure(element);
      if (embed) {
        replaceWith(element, postFacadeHtml(embed));
        changed = true;
      }
    }
  }
  if (!changed) return { html: sanitizedHtml, hasPlayers: false };
  return {
    html: DomUtils.getOuterHTML(document.children, { encodeEntities: 'utf8' }),
    hasPlayers,
  };
}

function hasAncestor(node: DomElement, name: string): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isElement(parent) && parent.name === name) return true;
  }
  return false;
}
