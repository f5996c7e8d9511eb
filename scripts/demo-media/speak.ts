/**
 * Makes the demo audio episodes (assets/demo/audio-NN.mp3): each episode's transcript, as the
 * demo corpus has it, spoken by espeak-ng with one voice per speaker after a short chime, and
 * encoded as a small MP3. Run it after changing a transcript line in
 * assets/demo/content/audios.json, then copy the printed sizes and seconds into
 * DEMO_FILE_SIZES and DEMO_FILE_SECONDS (src/server/features/seed/demo-media.ts).
 *
 *   apt-get install espeak-ng mecab mecab-ipadic-utf8 sox lame
 *   npx tsx --conditions=react-server scripts/demo-media/speak.ts [outDir]
 *
 * Readings come from MeCab's pronunciations (IPAdic), with the names it misreads fixed below.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoLists } from '@/server/features/seed/demo-content';
import { mp3Seconds } from '@/server/features/seed/media-duration';

const outDir = path.resolve(process.argv[2] ?? 'assets/demo');

/** Readings MeCab gets wrong, the longer before the shorter. */
const READINGS: readonly [string, string][] = [
  ['小林亮', 'コバヤシリョウ'],
  ['藤井玲奈', 'フジイレイナ'],
  ['松本葵', 'マツモトアオイ'],
  ['林恭平', 'ハヤシキョウヘイ'],
  ['中村沙織', 'ナカムラサオリ'],
  ['石川拓海', 'イシカワタクミ'],
  ['何人', 'ナンニン'],
  ['土を練る', 'ツチヲネル'],
];

/** espeak-ng voice, pitch (0–99) and speed (words a minute) by the speaker's family name. */
const VOICES: Readonly<Record<string, readonly [string, number, number]>> = {
  田中: ['ja+f2', 58, 150],
  小林: ['ja+m3', 38, 150],
  藤井: ['ja+f4', 62, 148],
  森: ['ja+f3', 56, 150],
  松本: ['ja+f5', 52, 146],
  林: ['ja+m1', 40, 146],
  中村: ['ja+f4', 64, 150],
  石川: ['ja+m7', 36, 148],
};

const run = (command: string, args: readonly string[], input?: string) =>
  execFileSync(command, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });

function pronunciation(text: string): string {
  let fixed = text;
  for (const [word, kana] of READINGS) fixed = fixed.replaceAll(word, kana);
  const kana = run('mecab', ['-F', '%f[8]', '--unk-format', '%m', '-E', '\n'], fixed).trim();
  // The particle を is said オ; quotation marks are a short pause.
  return kana
    .replaceAll('ヲ', 'オ')
    .replace(/[「」]/g, '、')
    .replace(/、+/g, '、')
    .replaceAll('。、', '。')
    .replace(/^、|、$/g, '');
}

type Line = { speaker: string; text: string };

function linesOf(transcript: string): Line[] {
  return [...transcript.matchAll(/<p><strong>([^<]+)<\/strong>\u3000(.*?)<\/p>/g)].map((m) => ({
    speaker: m[1]!,
    text: m[2]!,
  }));
}

function speak(lines: readonly Line[], mp3: string): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-audio-'));
  try {
    const chime = path.join(work, 'chime.wav');
    run(
      'sox',
      ['-n', '-r', '22050', '-c', '1', chime, 'synth', '1.6', 'sine', '660', 'sine', '990'].concat([
        'remix',
        '-',
        'fade',
        'q',
        '0.02',
        '1.6',
        '1.2',
        'gain',
        '-14',
      ]),
    );
    const gap = path.join(work, 'gap.wav');
    run('sox', ['-n', '-r', '22050', '-c', '1', gap, 'trim', '0', '0.55']);
    const parts = [chime, gap];
    lines.forEach((line, i) => {
      const voice = VOICES[line.speaker];
      if (!voice) throw new Error(`No voice for ${line.speaker}`);
      const [name, pitch, speed] = voice;
      const wav = path.join(work, `line-${i}.wav`);
      const args = ['-v', name, '-p', String(pitch), '-s', String(speed), '-g', '2', '-w', wav];
      run('espeak-ng', [...args, pronunciation(line.text)]);
      parts.push(wav, gap);
    });
    const joined = path.join(work, 'joined.wav');
    run('sox', [...parts, joined, 'highpass', '70', 'lowpass', '7000', 'norm', '-1']);
    run('lame', ['--silent', '-m', 'm', '-b', '24', '--resample', '16', '-q', '2', joined, mp3]);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const audios = (await demoLists()).find((list) => list.endpoint === 'audios')?.items ?? [];
for (const audio of audios) {
  const url = (audio.body.audioFile as { url: string }).url;
  const mp3 = path.join(outDir, path.basename(url));
  speak(linesOf(String(audio.body.transcript)), mp3);
  const seconds = mp3Seconds(new Uint8Array(fs.readFileSync(mp3)));
  console.log(`${path.basename(mp3)}\t${fs.statSync(mp3).size} bytes\t${Math.round(seconds)} s`);
}
