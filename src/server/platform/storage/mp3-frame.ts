/**
 * The header of an MPEG audio Layer III frame (MP3): what the upload check needs to know a
 * frame is one (its length, to find the next), and the demo corpus's tests to add up its
 * playing time (samples over sample rate). Pure: bytes in, numbers out.
 */

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_SAMPLE_RATES: Readonly<Record<number, readonly number[]>> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

export type Mp3Frame = { length: number; samples: number; sampleRate: number };

/** The MPEG-1/2/2.5 Layer III frame whose header starts at i, or null when none does. */
export function mp3FrameAt(b: Uint8Array, i: number): Mp3Frame | null {
  if (i + 4 > b.length || b[i] !== 0xff || (b[i + 1]! & 0xe0) !== 0xe0) return null;
  const version = (b[i + 1]! >> 3) & 3;
  const layer = (b[i + 1]! >> 1) & 3;
  const bitrateIndex = b[i + 2]! >> 4;
  const rateIndex = (b[i + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15) return null;
  // A reserved sample rate or emphasis: not a frame header.
  if (rateIndex === 3 || (b[i + 3]! & 3) === 2) return null;
  const mpeg1 = version === 3;
  const bitrate = (mpeg1 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex]! * 1000;
  const sampleRate = MP3_SAMPLE_RATES[version]![rateIndex]!;
  const padding = (b[i + 2]! >> 1) & 1;
  const length = Math.floor(((mpeg1 ? 144 : 72) * bitrate) / sampleRate) + padding;
  return { length, samples: mpeg1 ? 1152 : 576, sampleRate };
}
