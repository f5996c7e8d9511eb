import Image from '@tiptap/extension-image';
import { NodeSelection } from '@tiptap/pm/state';

/**
 * An image with its alt text and caption, written as
 * `<figure><img src alt width height><figcaption>…</figcaption></figure>` (no figcaption when
 * there is no caption). A bare `<img>` (older bodies, pasted pages) becomes the same figure.
 */

export type FigureImageAttributes = {
  src: string;
  alt: string;
  width: string | null;
  height: string | null;
  caption: string;
};

/** Raised on the editor's DOM when the image's own 「画像を編集」 button is pressed. */
export const EDIT_IMAGE_EVENT = 'rich-text-edit-image';

const DIMENSION = /^[0-9]{1,5}$/;

function imageOf(element: HTMLElement): HTMLElement | null {
  return element.localName === 'img' ? element : element.querySelector('img[src]');
}

function fromImage(read: (image: HTMLElement) => string | null) {
  return (element: HTMLElement) => {
    const image = imageOf(element);
    return image ? read(image) : null;
  };
}

function dimension(image: HTMLElement, name: string): string | null {
  const value = image.getAttribute(name);
  return value && DIMENSION.test(value) ? value : null;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value, 'https://relative.invalid/');
    return (url.protocol === 'https:' || url.protocol === 'http:') && !/^\s*[/\\]{2}/.test(value);
  } catch {
    return false;
  }
}

export const FigureImage = Image.extend({
  name: 'image',
  inline: false,
  group: 'block',
  atom: true,
  draggable: true,

  addOptions() {
    return {
      ...this.parent!(),
      inline: false,
      allowBase64: false,
    };
  },

  addAttributes() {
    return {
      src: { default: null, rendered: false, parseHTML: fromImage((i) => i.getAttribute('src')) },
      alt: { default: '', rendered: false, parseHTML: fromImage((i) => i.getAttribute('alt')) },
      width: { default: null, rendered: false, parseHTML: fromImage((i) => dimension(i, 'width')) },
      height: {
        default: null,
        rendered: false,
        parseHTML: fromImage((i) => dimension(i, 'height')),
      },
      caption: {
        default: '',
        rendered: false,
        parseHTML: (element) =>
          element.localName === 'figure'
            ? (element.querySelector('figcaption')?.textContent ?? '').replace(/\s+/g, ' ').trim()
            : '',
      },
    };
  },

  parseHTML() {
    const usable = (image: HTMLElement | null) =>
      image !== null && isHttpUrl(image.getAttribute('src') ?? '');
    return [
      {
        tag: 'figure',
        priority: 55,
        getAttrs: (element) => (usable(imageOf(element)) ? {} : false),
      },
      { tag: 'img[src]', getAttrs: (element) => (usable(element) ? {} : false) },
    ];
  },

  renderHTML({ node }) {
    const { src, alt, width, height, caption } = node.attrs as FigureImageAttributes;
    const image: Record<string, string> = { src, alt: alt ?? '' };
    if (width) image.width = width;
    if (height) image.height = height;
    return caption
      ? ['figure', ['img', image], ['figcaption', caption]]
      : ['figure', ['img', image]];
  },

  addNodeView() {
    return ({ node, getPos, editor }) => {
      const attrs = node.attrs as FigureImageAttributes;
      const dom = document.createElement('figure');
      dom.dataset.rt = 'image';
      dom.contentEditable = 'false';
      const image = document.createElement('img');
      image.src = attrs.src;
      image.alt = attrs.alt;
      dom.append(image);
      if (attrs.caption) {
        const caption = document.createElement('figcaption');
        caption.textContent = attrs.caption;
        dom.append(caption);
      }
      if (!attrs.alt) {
        const warning = document.createElement('p');
        warning.dataset.rtWarning = '';
        warning.textContent = '代替テキストが未入力です。「画像を編集」から入力してください。';
        dom.append(warning);
      }
      const edit = document.createElement('button');
      edit.type = 'button';
      edit.textContent = '画像を編集';
      edit.addEventListener('click', () => {
        const pos = getPos();
        if (typeof pos !== 'number') return;
        editor.view.dispatch(
          editor.state.tr.setSelection(NodeSelection.create(editor.state.doc, pos)),
        );
        dom.dispatchEvent(new CustomEvent(EDIT_IMAGE_EVENT, { bubbles: true }));
      });
      dom.append(edit);
      return { dom };
    };
  },
});
