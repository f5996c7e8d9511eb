import 'server-only';
import { loadDefaultJapaneseParser } from 'budoux';
import { ImageResponse } from 'next/og';
import { SHARE_IMAGE_SIZE } from '@/lib/share/share-image-path';
import { shareFonts } from './share-font';

/**
 * The share image of an item that has none of its own: its title in Japanese on the site's
 * colours (public/og-default.png's look), the site's name above it and the section below.
 * Only the title and the section: nothing an item keeps from visitors is ever drawn.
 * Lines break between phrases (BudouX), never inside a word.
 */

const parser = loadDefaultJapaneseParser();
/** Characters drawn at most: three lines at the smallest size. */
const TITLE_MAX_CHARS = 60;

export function titlePhrases(title: string): string[] {
  const chars = Array.from(title.replace(/\s+/g, ' ').trim());
  const text =
    chars.length > TITLE_MAX_CHARS
      ? `${chars.slice(0, TITLE_MAX_CHARS - 1).join('')}…`
      : chars.join('');
  return parser.parse(text);
}

/** Larger for a short title, so one of a few words fills the card as a long one does. */
export function titleFontSize(title: string): number {
  const n = Array.from(title).length;
  return n <= 16 ? 76 : n <= 30 ? 64 : 54;
}

export type ShareImageInput = { title: string; siteName: string; section: string };

export async function renderShareImage(input: ShareImageInput): Promise<ImageResponse> {
  // One pass over every text drawn: the fonts it needs, and each text as they can draw it.
  const { fonts, texts } = await shareFonts([input.title, input.siteName, input.section, '…']);
  const [title = '', siteName = '', section = ''] = texts;
  const phrases = titlePhrases(title);
  const size = titleFontSize(phrases.join(''));
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '80px 88px 72px',
        background: '#111111',
        color: '#ffffff',
        fontFamily: fonts.map((font) => `'${font.name}'`).join(', '),
      }}
    >
      <div style={{ display: 'flex' }}>
        <span
          style={{
            background: '#e6ff00',
            color: '#111111',
            fontSize: 30,
            padding: '6px 16px',
            letterSpacing: 1,
          }}
        >
          {siteName}
        </span>
      </div>
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          fontSize: size,
          lineHeight: 1.35,
          maxHeight: size * 1.35 * 3,
          overflow: 'hidden',
        }}
      >
        {phrases.map((phrase, i) => (
          <span key={i}>{phrase}</span>
        ))}
      </div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ width: 220, height: 14, background: '#e6ff00', marginBottom: 28 }} />
        <span style={{ fontSize: 30, color: '#dddddd' }}>{section}</span>
      </div>
    </div>,
    { ...SHARE_IMAGE_SIZE, fonts },
  );
}
