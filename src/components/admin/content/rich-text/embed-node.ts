import { Node } from '@tiptap/react';
import {
  EMBED_PROVIDER_LABELS,
  type Embed,
  type EmbedProvider,
  embedPageUrl,
  isPlayerProvider,
  playerEmbed,
  postEmbed,
} from '@/lib/cms/embeds';

/**
 * An embed (YouTube, Vimeo, X, Instagram), stored as embeds.ts spells it. In the console it is
 * a facade card: provider and URL, nothing loaded from the third party.
 */

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    embed: {
      insertEmbed: (embed: Embed) => ReturnType;
    };
  }
}

const DIMENSION = /^[0-9]{1,5}$/;

function dimension(value: string | null): string | null {
  return value && DIMENSION.test(value) ? value : null;
}

/** The post a figure stands for: nothing in it but one link to a canonical post URL. */
export function postInFigure(figure: HTMLElement): Embed | null {
  const [link, ...rest] = [...figure.children];
  if (!link || rest.length > 0 || link.localName !== 'a' || link.children.length > 0) return null;
  const outside = [...figure.childNodes].filter((node) => node !== link);
  if (outside.some((node) => node.nodeType !== 3 || /\S/.test(node.textContent ?? ''))) {
    return null;
  }
  return postEmbed(link.getAttribute('href') ?? '');
}

function notParsed() {
  return null;
}

export const EmbedNode = Node.create({
  name: 'embed',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

  addAttributes() {
    // Read by the parse rules below as one unit, so no attribute reads the element itself.
    return {
      provider: { default: null, rendered: false, parseHTML: notParsed },
      url: { default: null, rendered: false, parseHTML: notParsed },
      title: { default: null, rendered: false, parseHTML: notParsed },
      width: { default: null, rendered: false, parseHTML: notParsed },
      height: { default: null, rendered: false, parseHTML: notParsed },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'iframe[src]',
        getAttrs: (element) => {
          const embed = playerEmbed(element.getAttribute('src') ?? '');
          if (!embed) return false;
          return {
            ...embed,
            title: element.getAttribute('title') || null,
            width: dimension(element.getAttribute('width')),
            height: dimension(element.getAttribute('height')),
          };
        },
      },
      {
        // Before the image figure, which needs an <img> anyway.
        tag: 'figure',
        priority: 60,
        getAttrs: (element) => postInFigure(element) ?? false,
      },
    ];
  },

  renderHTML({ node }) {
    const { provider, url, title, width, height } = node.attrs as {
      provider: EmbedProvider;
      url: string;
      title: string | null;
      width: string | null;
      height: string | null;
    };
    if (isPlayerProvider(provider)) {
      const attributes: Record<string, string> = { src: url };
      if (width) attributes.width = width;
      if (height) attributes.height = height;
      attributes.title = title ?? `${EMBED_PROVIDER_LABELS[provider]}の動画`;
      attributes.allowfullscreen = '';
      return ['iframe', attributes];
    }
    return ['figure', ['a', { href: url }, url]];
  },

  addNodeView() {
    return ({ node }) => {
      const embed = node.attrs as Embed;
      const dom = document.createElement('div');
      dom.dataset.rt = 'embed';
      dom.dataset.provider = embed.provider;
      dom.contentEditable = 'false';
      const provider = document.createElement('strong');
      provider.textContent = `埋め込み：${EMBED_PROVIDER_LABELS[embed.provider]}`;
      const url = document.createElement('span');
      url.dataset.rtUrl = '';
      url.textContent = embedPageUrl(embed);
      const hint = document.createElement('span');
      hint.dataset.rtHint = '';
      hint.textContent = isPlayerProvider(embed.provider)
        ? 'サイトでは、読者が再生ボタンを押すまでプレーヤーを読み込みません。'
        : 'サイトでは、投稿へのリンクのカードとして表示します。';
      dom.append(provider, url, hint);
      return { dom };
    };
  },

  addCommands() {
    return {
      insertEmbed:
        (embed) =>
        ({ commands }) =>
          commands.insertBlock({ type: this.name, attrs: { ...embed } }),
    };
  },
});
