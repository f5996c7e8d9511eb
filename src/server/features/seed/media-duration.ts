import { mp3FrameAt } from '@/server/platform/storage/mp3-frame';

/**
 * The playing time of an MP3 or WebM file, read from its bytes, so the tests can hold the demo
 * corpus's `duration` fields to the files they describe. Only what the shipped files need:
 * MPEG audio Layer III frames (after an optional ID3v2 tag), and a WebM segment's Info.
 */

/** Seconds of MPEG audio: every frame's samples over its sample rate. */
export function mp3Seconds(b: Uint8Array): number {
  let i = 0;
  if (b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) {
    // ID3v2: a 10-byte header whose size is four 7-bit bytes.
    i = 10 + (((b[6]! << 21) | (b[7]! << 14) | (b[8]! << 7) | b[9]!) >>> 0);
  }
  let seconds = 0;
  let frames = 0;
  while (i < b.length) {
    const frame = mp3FrameAt(b, i);
    if (!frame) break; // a trailing tag, or the end
    seconds += frame.samples / frame.sampleRate;
    frames++;
    i += frame.length;
  }
  if (frames === 0) throw new Error('No MPEG audio frames found');
  return seconds;
}

/** An EBML variable-length integer at i: its value (marker bit removed unless kept). */
function vint(b: Uint8Array, i: number, keepMarker: boolean): { value: number; length: number } {
  const first = b[i];
  if (first === undefined || first === 0) throw new Error(`Bad EBML number at ${i}`);
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length++;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === (keepMarker ? first : 0xff >> length);
  for (let k = 1; k < length; k++) {
    value = value * 256 + b[i + k]!;
    allOnes &&= b[i + k] === 0xff;
  }
  // An unknown size (all value bits set): to the end of the file.
  return { value: !keepMarker && allOnes ? Number.POSITIVE_INFINITY : value, length };
}

type Element = { id: number; start: number; end: number };

function* children(b: Uint8Array, from: number, to: number): Generator<Element> {
  let i = from;
  while (i < Math.min(to, b.length)) {
    const id = vint(b, i, true);
    const size = vint(b, i + id.length, false);
    const start = i + id.length + size.length;
    const end = Math.min(start + size.value, b.length);
    yield { id: id.value, start, end };
    i = end;
  }
}

const EBML_SEGMENT = 0x18538067;
const EBML_INFO = 0x1549a966;
const EBML_TIMECODE_SCALE = 0x2ad7b1;
const EBML_DURATION = 0x4489;

/** Seconds of a WebM file, from its segment's Info (Duration × TimecodeScale). */
export function webmSeconds(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (const segment of children(b, 0, b.length)) {
    if (segment.id !== EBML_SEGMENT) continue;
    for (const info of children(b, segment.start, segment.end)) {
      if (info.id !== EBML_INFO) continue;
      let scale = 1_000_000; // nanoseconds per tick, the default
      let duration: number | null = null;
      for (const field of children(b, info.start, info.end)) {
        const size = field.end - field.start;
        if (field.id === EBML_TIMECODE_SCALE) {
          scale = 0;
          for (let k = field.start; k < field.end; k++) scale = scale * 256 + b[k]!;
        } else if (field.id === EBML_DURATION) {
          duration =
            size === 4
              ? view.getFloat32(field.start)
              : size === 8
                ? view.getFloat64(field.start)
                : 0;
        }
      }
      if (duration === null) throw new Error('The WebM segment gives no duration');
      return (duration * scale) / 1e9;
    }
  }
  throw new Error('No WebM segment info found');
}
