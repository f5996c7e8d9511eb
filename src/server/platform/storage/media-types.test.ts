import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_BYTES,
  MediaRejection,
  inspectMedia,
  mediaTypeForKey,
  readImageDimensions,
  sniffMediaType,
} from './media-types';
import { type SampleName, sample } from '@test-support/media-samples';

const text = (s: string) => new TextEncoder().encode(s);

function sniff(bytes: Uint8Array, size = bytes.length) {
  return sniffMediaType(bytes, size);
}

async function rejection(fn: () => Promise<unknown>): Promise<MediaRejection> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof MediaRejection) return error;
    throw error;
  }
  throw new Error('expected a MediaRejection');
}

describe('sniffMediaType: supported formats from real files', () => {
  const cases: [SampleName, string, string][] = [
    ['jpeg', 'jpeg', 'image/jpeg'],
    ['jpegProgressive', 'jpeg', 'image/jpeg'],
    ['png', 'png', 'image/png'],
    ['gif', 'gif', 'image/gif'],
    ['webpLossy', 'webp', 'image/webp'],
    ['webpLossless', 'webp', 'image/webp'],
    ['webpExtended', 'webp', 'image/webp'],
    ['avif', 'avif', 'image/avif'],
    ['mp3', 'mp3', 'audio/mpeg'],
    ['mp3Id3', 'mp3', 'audio/mpeg'],
    ['m4a', 'm4a', 'audio/mp4'],
    ['mp4Audio', 'm4a', 'audio/mp4'],
    ['wav', 'wav', 'audio/wav'],
    ['oggVorbis', 'ogg', 'audio/ogg'],
    ['oggOpus', 'ogg', 'audio/ogg'],
    ['mp4', 'mp4', 'video/mp4'],
    ['mp4MoovAtEnd', 'mp4', 'video/mp4'],
    ['webm', 'webm', 'video/webm'],
  ];
  it.each(cases)('%s → %s (%s)', async (name, format, contentType) => {
    const result = await sniff(sample(name));
    expect(result).toMatchObject({ ok: true, type: { format, contentType } });
  });

  it('decides from the first bytes alone when the rest of the file is not at hand', async () => {
    const mp4 = sample('mp4');
    expect(await sniffMediaType(mp4.subarray(0, 64))).toMatchObject({
      ok: true,
      type: { format: 'mp4' },
    });
    // An MP4 whose track headers are further on is taken as video (the larger limit applies).
    expect(await sniff(sample('mp4MoovAtEnd').subarray(0, 40), 1546)).toMatchObject({
      ok: true,
      type: { format: 'mp4', kind: 'video' },
    });
    // M4A's brand says audio even without the track headers.
    expect(await sniff(sample('m4a').subarray(0, 32), 1188)).toMatchObject({
      ok: true,
      type: { format: 'm4a', kind: 'audio' },
    });
  });
});

describe('sniffMediaType: refusals name what was found', () => {
  const refused: [string, Uint8Array, string][] = [
    [
      'SVG with a script',
      text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
      'SVG',
    ],
    ['SVG after a BOM and blank lines', text('\uFEFF\n\n  <svg onload="alert(1)"></svg>'), 'SVG'],
    ['HTML renamed .jpg', text('<!DOCTYPE html><html><body><script>alert(1)</script>'), 'HTML'],
    ['a bare script tag', text('<script>alert(document.cookie)</script>'), 'HTML'],
    ['XML', text('<?xml version="1.0"?><rss></rss>'), 'XML'],
    ['PDF', text('%PDF-1.7\n%âãÏÓ\n1 0 obj'), 'PDF'],
    ['plain text', text('hello, world\n'), 'テキスト'],
    ['JSON', text('{"a":1}'), 'JSON / テキスト'],
    ['QuickTime', sample('mov'), 'QuickTime (MOV)'],
    ['Matroska', sample('mkv'), 'Matroska (MKV)'],
    ['TIFF', sample('tiff'), 'TIFF'],
    ['ZIP', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), 'ZIP (Office 文書などを含む)'],
    ['AAC in ADTS', new Uint8Array([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0x21]), 'AAC (ADTS)'],
    [
      'random bytes',
      new Uint8Array([0x00, 0x13, 0x88, 0xfe, 0x01, 0x02, 0x9a, 0x00]),
      '不明な形式',
    ],
    ['nothing', new Uint8Array(), '空のファイル'],
  ];
  it.each(refused)('%s', async (_, bytes, detected) => {
    expect(await sniff(bytes)).toEqual({ ok: false, reason: 'unsupported', detected });
  });

  it('does not take a stray MPEG sync word followed by junk for MP3', async () => {
    const bytes = new Uint8Array(400).fill(0x41);
    bytes.set([0xff, 0xe3, 0x18, 0xc4]); // a valid MPEG-2.5 Layer III header, 72-byte frame
    expect(await sniff(bytes)).toMatchObject({ ok: false, reason: 'unsupported' });
  });
});

describe('sniffMediaType: what file-type finds, our list decides', () => {
  const bytes = (...parts: (Uint8Array | string)[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

  it.each([
    // file-type calls this XML; it must still be named SVG.
    [
      'SVG with a DOCTYPE',
      text('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg/>'),
      'SVG',
    ],
    ['gzip (an .svgz)', new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]), 'gzip'],
    ['BMP, named by its extension', bytes('BM', new Uint8Array(60)), 'BMP'],
    ['HTML before PNG bytes', bytes('<html><script>alert(1)</script>', sample('png')), 'HTML'],
    ['a Windows executable', bytes('MZ', new Uint8Array(200)), 'Windows 実行ファイル'],
  ])('refuses %s, named', async (_, file, detected) => {
    expect(await sniff(file)).toEqual({ ok: false, reason: 'unsupported', detected });
  });

  it('takes an AVIF whose major brand is mif1, and refuses HEIC', async () => {
    const avif = sample('avif').slice();
    avif.set(text('mif1'), 8); // the compatible brands still name avif
    expect(await sniff(avif)).toMatchObject({ ok: true, type: { format: 'avif' } });
    const heic = sample('avif').slice();
    heic.set(text('heic'), 8);
    heic.set(text('heicheic'), 16); // no avif among the compatible brands either
    heic.set(text('heic'), 24);
    expect(await sniff(heic)).toEqual({
      ok: false,
      reason: 'unsupported',
      detected: 'HEIC / HEIF',
    });
  });

  it('takes a PNG for a PNG whatever it is called, and nothing else for one', async () => {
    // The name and the client's type never reach the sniffer: only these bytes do.
    expect(await sniff(sample('png'))).toMatchObject({ ok: true, type: { format: 'png' } });
  });

  it('takes a GIF with markup after its header as a GIF, served as image/gif only', async () => {
    const polyglot = bytes(sample('gif'), '<script>alert(1)</script>');
    // Never HTML: the stored type is the sniffed one, and every answer says nosniff.
    expect(await sniff(polyglot)).toMatchObject({ ok: true, type: { contentType: 'image/gif' } });
  });

  it('refuses a PNG signature over a forged header', async () => {
    const forged = bytes(sample('png').subarray(0, 8), '<svg onload="alert(1)"/>' + ' '.repeat(40));
    expect(await sniff(forged)).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it.each([
    ['one byte of a JPEG', new Uint8Array([0xff])],
    ['two bytes of a PNG', new Uint8Array([0x89, 0x50])],
  ])('does not take %s for anything', async (_, file) => {
    expect(await sniff(file)).toMatchObject({ ok: false });
  });
});

describe('sniffMediaType: truncated files', () => {
  const cut = (name: SampleName, length: number) => sample(name).subarray(0, length);
  const truncatedCases: [string, Uint8Array][] = [
    ['JPEG cut inside its EXIF segment', cut('jpeg', 100)],
    ['JPEG of three bytes', cut('jpeg', 3)],
    ['PNG cut inside IHDR', cut('png', 20)],
    ['GIF cut before its screen size', cut('gif', 8)],
    ['WebP shorter than its RIFF size', cut('webpLossy', 40)],
    ['WAV shorter than its RIFF size', cut('wav', 100)],
    ['MP4 shorter than its boxes', cut('mp4', 500)],
    ['M4A cut inside ftyp', cut('m4a', 20)],
    ['WebM cut inside the EBML header', cut('webm', 20)],
    ['Ogg cut inside the first page', cut('oggOpus', 30)],
    ['MP3 cut inside the first frame', cut('mp3', 50)],
  ];
  it.each(truncatedCases)('%s', async (_, bytes) => {
    expect(await sniff(bytes)).toMatchObject({ ok: false, reason: 'truncated' });
  });
});

describe('readImageDimensions', () => {
  it.each([
    'jpeg',
    'jpegProgressive',
    'png',
    'gif',
    'webpLossy',
    'webpLossless',
    'webpExtended',
  ] as const)('%s is 3×2', async (name) => {
    const result = await sniffMediaType(sample(name));
    if (!result.ok) throw new Error('not sniffed');
    expect(readImageDimensions(result.type.format, sample(name))).toEqual({ width: 3, height: 2 });
  });

  it('reads large sizes from crafted headers', () => {
    const png = new Uint8Array(33);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(png.buffer).setUint32(16, 12000);
    new DataView(png.buffer).setUint32(20, 8000);
    expect(readImageDimensions('png', png)).toEqual({ width: 12000, height: 8000 });

    const gif = text('GIF89a\0\0\0\0\0\0\0');
    new DataView(gif.buffer).setUint16(6, 1920, true);
    new DataView(gif.buffer).setUint16(8, 1080, true);
    expect(readImageDimensions('gif', gif)).toEqual({ width: 1920, height: 1080 });
  });

  it('reads AVIF sizes (ISO media: the ispe property)', () => {
    expect(readImageDimensions('avif', sample('avif'))).toEqual({ width: 3, height: 2 });
  });

  it('answers null for garbage, a cut header and bytes of another format', () => {
    expect(readImageDimensions('jpeg', new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x01]))).toBeNull();
    expect(readImageDimensions('avif', sample('avif').subarray(0, 40))).toBeNull();
    expect(readImageDimensions('gif', sample('png'))).toBeNull();
    expect(readImageDimensions('mp3', sample('png'))).toBeNull();
  });
});

describe('inspectMedia', () => {
  it('answers type, size and dimensions', async () => {
    const png = sample('png');
    expect(await inspectMedia(png, png.length)).toMatchObject({
      type: { format: 'png', contentType: 'image/png', extension: 'png' },
      size: png.length,
      width: 3,
      height: 2,
    });
    const mp3 = sample('mp3');
    const media = await inspectMedia(mp3, mp3.length);
    expect(media.type.kind).toBe('audio');
    expect(media.width).toBeUndefined();
  });

  it('refuses SVG, HTML and cut files with 400 and a message naming what it found', async () => {
    const svg = await rejection(() => inspectMedia(text('<svg><script>x</script></svg>'), 30));
    expect(svg.status).toBe(400);
    expect(svg.message).toContain('検出された形式: SVG');
    const cut = await rejection(() => inspectMedia(sample('png').subarray(0, 20), 20));
    expect(cut.status).toBe(400);
    expect(cut.message).toContain('PNG ファイルが壊れているか');
    expect((await rejection(() => inspectMedia(new Uint8Array(), 0))).message).toBe(
      'ファイルが空です。',
    );
  });

  it('applies the limit of the detected kind (413)', async () => {
    const png = sample('png');
    expect((await rejection(() => inspectMedia(png, DEFAULT_MAX_BYTES.image + 1))).status).toBe(
      413,
    );
    const small = await rejection(() => inspectMedia(png, png.length, { image: 50 }));
    expect(small.status).toBe(413);
    expect(small.message).toContain('画像は50 バイトまでです');
    // Another kind's limit does not apply.
    expect((await inspectMedia(png, png.length, { video: 10 })).size).toBe(png.length);
  });

  it('refuses images of more than 100 megapixels', async () => {
    const png = sample('png').slice();
    new DataView(png.buffer).setUint32(16, 20000);
    new DataView(png.buffer).setUint32(20, 10000);
    expect((await rejection(() => inspectMedia(png, png.length))).message).toContain('20000×10000');
  });

  it('reads AVIF sizes, and refuses one over 100 megapixels or without a readable size', async () => {
    const avif = sample('avif').slice();
    expect(await inspectMedia(avif, avif.length)).toMatchObject({ width: 3, height: 2 });
    const ispe = Buffer.from(avif).indexOf('ispe');
    new DataView(avif.buffer).setUint32(ispe + 8, 20000);
    new DataView(avif.buffer).setUint32(ispe + 12, 10000);
    expect((await rejection(() => inspectMedia(avif, avif.length))).message).toContain(
      '20000×10000',
    );
    avif.set(text('xxxx'), ispe); // no size property left
    const unreadable = await rejection(() => inspectMedia(avif, avif.length));
    expect(unreadable.status).toBe(400);
    expect(unreadable.message).toContain('壊れている');
  });
});

describe('mediaTypeForKey', () => {
  it('maps known extensions and nothing else', () => {
    expect(mediaTypeForKey('images/2026/01/a.jpg')).toEqual({
      contentType: 'image/jpeg',
      kind: 'image',
    });
    expect(mediaTypeForKey('demo/a.m4a')).toEqual({ contentType: 'audio/mp4', kind: 'audio' });
    expect(mediaTypeForKey('demo/a.svg')).toBeNull();
    expect(mediaTypeForKey('demo/a.html')).toBeNull();
    expect(mediaTypeForKey('demo.jpg/readme')).toBeNull();
  });
});
