// Makes the demo movies (assets/demo/movie-01.webm … movie-06.webm): short silent animations of
// what each movie's description tells, drawn frame by frame as SVG (sharp, with the system's
// Noto CJK fonts) and encoded to VP9 WebM by ffmpeg. Copy the printed sizes and seconds into
// DEMO_FILE_SIZES and DEMO_FILE_SECONDS (src/server/features/seed/demo-media.ts).
//
//   apt-get install ffmpeg fonts-noto-cjk
//   node scripts/demo-media/movies.mjs [outDir] [index]     one movie only with index (0–5)
//   node scripts/demo-media/movies.mjs --stills <file.png>  a contact sheet of stills
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { createRequire } from 'node:module';
import process from 'node:process';

const sharp = createRequire(import.meta.url)('sharp');

const W = 960;
const H = 540;
const FPS = 24;
const C = {
  paper: '#f3f1ec',
  beige: '#ebe3d6',
  mist: '#e4e7e8',
  ink: '#1f2326',
  navy: '#2c3a4b',
  slate: '#5c6c7b',
  steel: '#93a3b3',
  sage: '#a8b49c',
  terracotta: '#b8856b',
  brown: '#5a4a40',
  tan: '#c9b89a',
  yellow: '#ebff00',
};
const SANS = 'Noto Sans CJK JP';
const SERIF = 'Noto Serif CJK JP';

const clamp = (v, a = 0, b = 1) => Math.min(b, Math.max(a, v));
const ease = (v) => {
  const t = clamp(v);
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
};
/** 0 → 1 between a and b (seconds). */
const span = (t, a, b) => ease((t - a) / (b - a));
const lerp = (a, b, k) => a + (b - a) * k;
const mix = (c1, c2, k) => {
  const p = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [a, b] = [p(c1), p(c2)];
  return `#${a
    .map((v, i) =>
      Math.round(lerp(v, b[i], k))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
};
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const rect = (x, y, w, h, fill, extra = '') =>
  `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0, w).toFixed(1)}" height="${Math.max(0, h).toFixed(1)}" fill="${fill}" ${extra}/>`;
const circle = (cx, cy, r, fill, extra = '') =>
  `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${Math.max(0, r).toFixed(1)}" fill="${fill}" ${extra}/>`;
const text = (
  x,
  y,
  s,
  { size = 28, fill = C.ink, family = SANS, weight = 400, anchor = 'start', opacity = 1 } = {},
) =>
  `<text x="${x}" y="${y}" font-family="${family}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="${anchor}" opacity="${opacity.toFixed(2)}">${esc(s)}</text>`;

/** Title card at the start and the site's name at the end, laid over any scene. */
function frameWithCards(t, duration, title, subtitle, scene, dark = false) {
  const fg = dark ? C.paper : C.ink;
  const bg = dark ? C.ink : C.paper;
  let s = scene(t);
  const titleIn = 1 - span(t, 3.2, 4.2);
  if (titleIn > 0) {
    s += rect(0, 0, W, H, bg, `opacity="${titleIn.toFixed(2)}"`);
    s += text(80, 250, title, {
      size: 46,
      fill: fg,
      family: SERIF,
      weight: 600,
      opacity: titleIn * span(t, 0, 0.8),
    });
    s += text(82, 305, subtitle, { size: 22, fill: fg, opacity: titleIn * span(t, 0.5, 1.3) });
    s += rect(82, 335, 60 * span(t, 0.8, 1.8), 4, C.yellow, `opacity="${titleIn.toFixed(2)}"`);
  }
  const endIn = span(t, duration - 2.2, duration - 1.4);
  if (endIn > 0) {
    s += rect(0, 0, W, H, bg, `opacity="${endIn.toFixed(2)}"`);
    s += text(W / 2, H / 2 + 10, 'AXIS Membership', {
      size: 30,
      fill: fg,
      anchor: 'middle',
      weight: 600,
      opacity: endIn,
    });
  }
  return s;
}

/** A caption band at the bottom left: the step being shown. */
const caption = (label, opacity = 1, dark = false) =>
  rect(60, H - 92, 12, 40, C.yellow, `opacity="${opacity.toFixed(2)}"`) +
  text(86, H - 62, label, { size: 26, fill: dark ? C.paper : C.ink, weight: 500, opacity });

/** Which of several timed captions is showing, with fades. */
function captions(t, list, dark = false) {
  let s = '';
  for (const [a, b, label] of list) {
    const o = Math.min(span(t, a, a + 0.5), 1 - span(t, b - 0.5, b));
    if (o > 0) s += caption(label, o, dark);
  }
  return s;
}

// --- 1: the light of a day at a window ----------------------------------------------------

function windowLight(t) {
  const day = clamp((t - 4) / 24); // 0 = 7:00 … 1 = 18:00
  const sky =
    day < 0.5 ? mix('#d9e3ea', '#bcd3e6', day * 2) : mix('#bcd3e6', '#e8b48f', (day - 0.5) * 2);
  const light =
    day < 0.5 ? mix('#f6f0dc', '#fffdf6', day * 2) : mix('#fffdf6', '#f2b27c', (day - 0.5) * 2);
  const wall = mix(C.beige, '#d9c7b3', day > 0.6 ? (day - 0.6) * 2.5 : 0);
  let s = rect(0, 0, W, H, wall);
  // The window: a frame of four panes.
  const wx = 330,
    wy = 70,
    ww = 300,
    wh = 250;
  s += rect(wx, wy, ww, wh, sky);
  const sunX = lerp(wx - 40, wx + ww + 40, day);
  const sunY = wy + 140 - Math.sin(day * Math.PI) * 110;
  s += `<clipPath id="pane"><rect x="${wx}" y="${wy}" width="${ww}" height="${wh}"/></clipPath>`;
  s += `<g clip-path="url(#pane)">${circle(sunX, sunY, 26, light)}</g>`;
  s += rect(wx + ww / 2 - 4, wy, 8, wh, C.brown) + rect(wx, wy + wh / 2 - 4, ww, 8, C.brown);
  s += rect(wx - 10, wy - 10, ww + 20, 10, C.brown) + rect(wx - 10, wy + wh, ww + 20, 10, C.brown);
  s += rect(wx - 10, wy, 10, wh, C.brown) + rect(wx + ww, wy, 10, wh, C.brown);
  // Floor and the patch of light the window throws on it, moving against the sun.
  const floorY = 400;
  s += rect(0, floorY, W, H - floorY, mix(C.tan, '#b99f80', day));
  const shift = lerp(260, -260, day);
  const stretch = 1 + Math.abs(day - 0.5) * 1.4;
  const px = wx + shift - (ww * (stretch - 1)) / 2;
  const patch = `${px},${floorY + 8} ${px + ww * stretch},${floorY + 8} ${px + ww * stretch + 90},${H - 20} ${px + 90},${H - 20}`;
  s += `<polygon points="${patch}" fill="${light}" opacity="0.75"/>`;
  // The frame's shadow across the patch.
  s += `<line x1="${px + (ww * stretch) / 2}" y1="${floorY + 8}" x2="${px + (ww * stretch) / 2 + 90}" y2="${H - 20}" stroke="${mix(C.tan, C.brown, 0.4)}" stroke-width="6" opacity="0.6"/>`;
  const hour = 7 + Math.floor(day * 11);
  const minute = Math.floor(((day * 11) % 1) * 6) * 10;
  s += text(W - 70, 70, `${hour}:${String(minute).padStart(2, '0')}`, {
    size: 34,
    anchor: 'end',
    weight: 500,
    fill: C.ink,
  });
  s += captions(t, [
    [4, 12, '朝：低い光が、床の奥まで届く'],
    [12, 20, '昼：光は窓の足もとに小さくまとまる'],
    [20, 28.5, '夕方：西日が色を帯び、長く伸びる'],
  ]);
  return s;
}

// --- 2: punctuation and leading -------------------------------------------------------------

const SENTENCE = [
  '書体を選ぶことは、文章にふさわしい',
  '声を選ぶことに似ている。「明朝体」は',
  '落ち着いた語り口を、ゴシック体は明快',
  'な語り口を思わせる。',
];
const PUNCT = new Set(['、', '。', '「', '」']);

function typesetting(t) {
  let s = rect(0, 0, W, H, C.paper);
  const size = 34;
  const squeeze = span(t, 12, 15); // 約物を半角に
  const leading = lerp(0.5, 0.8, span(t, 21, 24)); // 行間: 字の大きさの50% → 80%
  const x0 = 110;
  const y0 = 150;
  // The grid of full-width squares, shown while the text is set solid.
  const gridO = 1 - span(t, 9, 11);
  SENTENCE.forEach((line, li) => {
    const y = y0 + li * size * (1 + leading);
    let x = x0;
    for (const ch of Array.from(line)) {
      const isPunct = PUNCT.has(ch);
      const adv = isPunct ? lerp(size, size / 2, squeeze) : size;
      if (gridO > 0)
        s += rect(
          x,
          y - size * 0.88,
          size,
          size,
          'none',
          `stroke="${C.steel}" stroke-width="1" opacity="${gridO.toFixed(2)}"`,
        );
      // Opening brackets sit at the right of their square: move them left as the square halves.
      const dx = ch === '「' ? -lerp(0, size / 2, squeeze) : 0;
      const highlight = isPunct && t > 11 && t < 18;
      if (highlight) s += rect(x, y - size * 0.88, adv, size, C.yellow, 'opacity="0.8"');
      s += text(x + dx, y, ch, { size, family: SERIF, fill: C.ink });
      x += adv;
    }
  });
  // A ruler of the leading on the right.
  const lo = span(t, 19, 20);
  if (lo > 0) {
    const yA = y0;
    const yB = y0 + size * (1 + leading);
    s += `<line x1="780" y1="${yA - size * 0.88}" x2="780" y2="${yB - size * 0.88}" stroke="${C.terracotta}" stroke-width="3" opacity="${lo}"/>`;
    s += text(796, (yA + yB) / 2 - size * 0.5, `行送り ${(1 + leading).toFixed(2)}`, {
      size: 20,
      fill: C.terracotta,
      opacity: lo,
    });
  }
  s += captions(t, [
    [4, 11, '1. ベタ組み：すべての文字を全角の枠に並べる'],
    [11, 18, '2. 約物（、。「」）を半角に詰める'],
    [18, 28.5, '3. 行間を字の大きさの50%から80%へ'],
  ]);
  return s;
}

// --- 3: coats of lacquer ---------------------------------------------------------------------

const COATS = [
  ['木地を削って整える', '', '#b98e5f', 46],
  ['下地を塗る', '下地を研ぐ', '#8d7f70', 26],
  ['中塗りをする', '中塗りを研ぐ', '#4a3a33', 16],
  ['上塗りをする', '上塗りを研ぐ', '#2a1c18', 12],
  ['仕上げの上塗りをする', '', '#7b2b21', 12],
];

function lacquer(t) {
  let s = rect(0, 0, W, H, C.beige);
  const x = 180,
    w = 600,
    base = 400;
  let y = base;
  const per = 4.5;
  let label = '';
  COATS.forEach(([paint, sand, color, h], i) => {
    const start = 4 + i * per;
    const grow = span(t, start, start + per * 0.5);
    if (grow <= 0) return;
    // Sanding (研ぎ) after each coat but the last: the top of the layer is taken down a little.
    const sanded = sand ? span(t, start + per * 0.55, start + per * 0.95) : 0;
    const height = h * grow - 4 * sanded;
    y -= height;
    s += rect(x, y, w, height, color);
    if (grow > 0 && t < start + per) {
      label = sanded > 0 && sanded < 1 ? sand : paint;
      if (sanded > 0 && sanded < 1) {
        const sx = lerp(x, x + w - 90, (Math.sin(t * 5) + 1) / 2);
        s += rect(sx, y - 26, 90, 20, C.steel, 'rx="4"');
      }
    }
  });
  s += text(x + w, base + 34, '断面（拡大）', { size: 20, fill: C.brown, anchor: 'end' });
  const coats = COATS.filter((_, i) => t >= 4 + i * per).length;
  s += text(W - 70, 70, `工程 ${Math.max(1, coats)} / ${COATS.length}`, {
    size: 28,
    anchor: 'end',
    weight: 500,
  });
  if (label && t < 4 + COATS.length * per) s += caption(label);
  else if (t >= 4 + COATS.length * per)
    s += caption('塗って研ぐ、を繰り返して艶が生まれる', span(t, 26.5, 27));
  return s;
}

// --- 4: from collected waste to a new material ----------------------------------------------

function recycling(t) {
  let s = rect(0, 0, W, H, C.mist);
  const colors = [C.navy, C.terracotta, C.sage, C.steel, C.tan, C.slate];
  const stage = t < 10 ? 0 : t < 16 ? 1 : t < 22 ? 2 : 3;
  const labels = [
    '回収：使い終えた製品を集める',
    '洗浄：汚れとラベルを落とす',
    '粉砕：細かいフレークにする',
    '成形：板に押し固める',
  ];
  // Pieces falling into a bin, then washed, then crushed, then pressed into a sheet.
  for (let i = 0; i < 18; i++) {
    const c = colors[i % colors.length];
    const col = i % 6,
      row = Math.floor(i / 6);
    const fall = span(t, 4 + i * 0.25, 5.2 + i * 0.25);
    const tx = 300 + col * 62,
      ty = lerp(-80, 250 + row * 50, fall);
    if (stage <= 1) {
      const wobble = stage === 1 ? Math.sin(t * 6 + i) * 6 : 0;
      s += rect(
        tx + wobble,
        ty,
        50,
        34,
        c,
        `rx="6" transform="rotate(${((i * 23) % 40) - 20} ${tx + 25} ${ty + 17})"`,
      );
    } else if (stage === 2) {
      const k = span(t, 16, 18);
      for (let j = 0; j < 4; j++) {
        const fx = tx + ((j * 17) % 40) * k + (j % 2) * 10;
        const fy = ty + ((j * 11) % 30) * k;
        s += rect(fx, fy, lerp(50, 12, k), lerp(34, 10, k), c, 'rx="2"');
      }
    } else {
      const k = span(t, 22, 24.5);
      for (let j = 0; j < 4; j++) {
        const fx = lerp(tx + ((j * 17) % 40) + (j % 2) * 10, 300 + ((i * 4 + j) % 24) * 15.5, k);
        const fy = lerp(ty + ((j * 11) % 30), 300 + (((i * 4 + j) * 7) % 3) * 8, k);
        s += rect(fx, fy, 12, 10, c, 'rx="2"');
      }
      if (k >= 1) s += rect(292, 296, 380, 36, 'none', `stroke="${C.ink}" stroke-width="3" rx="4"`);
    }
  }
  // The bin, with bubbles while washing.
  if (stage <= 2) {
    s += `<path d="M 270 230 L 290 420 L 680 420 L 700 230" fill="none" stroke="${C.ink}" stroke-width="4"/>`;
    if (stage === 1)
      for (let b = 0; b < 14; b++)
        s += circle(
          300 + ((b * 71) % 380),
          410 - ((t * 60 + b * 37) % 170),
          6 + (b % 3) * 3,
          'none',
          `stroke="${C.navy}" stroke-width="2"`,
        );
  }
  s += text(W - 70, 70, `${stage + 1} / 4`, { size: 28, anchor: 'end', weight: 500 });
  if (t > 4) s += caption(labels[stage], Math.min(span(t, 4, 4.5), 1 - span(t, 27.5, 28)));
  return s;
}

// --- 5: massing studies ---------------------------------------------------------------------

const STUDIES = [
  [
    [120, 160, 220],
    [350, 120, 150],
    [520, 200, 110],
  ],
  [
    [140, 260, 120],
    [420, 150, 200],
    [600, 110, 90],
  ],
  [
    [160, 120, 260],
    [300, 220, 130],
    [560, 160, 170],
  ],
  [
    [180, 200, 170],
    [400, 150, 120],
    [570, 140, 210],
  ],
];

function massing(t) {
  let s = rect(0, 0, W, H, C.paper);
  const ground = 430;
  s += `<line x1="80" y1="${ground}" x2="${W - 80}" y2="${ground}" stroke="${C.ink}" stroke-width="3"/>`;
  const i = clamp(Math.floor((t - 4) / 6), 0, STUDIES.length - 1);
  const k = span(t, 4 + i * 6, 4 + i * 6 + 1.6);
  const from = STUDIES[Math.max(0, i - 1)];
  const to = STUDIES[i];
  const fills = [C.tan, '#d8ccb6', C.steel];
  to.forEach(([x, w, h], j) => {
    const [fx, fw, fh] = from[j];
    const bx = lerp(fx, x, k) + 40,
      bw = lerp(fw, w, k),
      bh = lerp(fh, h, k);
    s += rect(bx + 8, ground - bh + 8, bw, bh, '#00000014');
    s += rect(bx, ground - bh, bw, bh, fills[j], `stroke="${C.ink}" stroke-width="2"`);
  });
  s += circle(790, 120, 24, C.yellow);
  const names = [
    '案1：三つの棟を並べる',
    '案2：中央を高くする',
    '案3：低い棟で通りに開く',
    '決定案：高い棟を奥に寄せる',
  ];
  if (t > 4) s += caption(names[i], Math.min(span(t, 4, 4.5), 1 - span(t, 27.5, 28)));
  return s;
}

// --- 6: taking things out of a poster -------------------------------------------------------

function poster(t) {
  let s = rect(0, 0, W, H, C.mist);
  const px = 330,
    py = 40,
    pw = 300,
    ph = 424;
  s += rect(px + 8, py + 8, pw, ph, '#00000018') + rect(px, py, pw, ph, C.paper);
  const out = (a) => 1 - span(t, a, a + 1.2);
  const els = [
    [
      out(6),
      () => rect(px + 24, py + 24, 120, 16, C.steel) + rect(px + 24, py + 46, 90, 10, C.steel),
    ],
    [out(8), () => circle(px + 240, py + 70, 34, C.terracotta)],
    [
      out(10),
      () => [0, 1, 2, 3, 4].map((r) => rect(px + 24, py + 300 + r * 12, 250, 6, C.steel)).join(''),
    ],
    [
      out(12),
      () =>
        rect(px + 24, py + 370, 60, 30, C.sage) +
        rect(px + 94, py + 370, 60, 30, C.sage) +
        rect(px + 164, py + 370, 60, 30, C.sage),
    ],
    [out(14), () => rect(px + 200, py + 250, 76, 24, C.navy)],
  ];
  for (const [o, draw] of els) if (o > 0) s += `<g opacity="${o.toFixed(2)}">${draw()}</g>`;
  // What stays: the title, the date, the place; the title grows as room is made.
  const grow = span(t, 15, 18);
  s += text(px + 24, py + lerp(170, 200, grow), '試作の', {
    size: lerp(40, 58, grow),
    family: SERIF,
    weight: 700,
  });
  s += text(px + 24, py + lerp(220, 268, grow), 'アーカイブ', {
    size: lerp(40, 58, grow),
    family: SERIF,
    weight: 700,
  });
  s += rect(px + 24, py + lerp(240, 300, grow), lerp(40, 80, grow), 6, C.yellow);
  s += text(px + 24, py + lerp(272, 350, grow), '4.12 — 6.30', {
    size: lerp(20, 30, grow),
    weight: 500,
  });
  s += text(px + 24, py + lerp(292, 385, grow), 'デザインギャラリー', { size: lerp(14, 20, grow) });
  s += captions(t, [
    [4, 6.5, '要素が多すぎて、何も目に入らない'],
    [6.5, 15, '一つずつ外して、伝わるかを確かめる'],
    [15, 28.5, '残すのは、名前と日付と場所だけ'],
  ]);
  return s;
}

const MOVIES = [
  {
    file: 'movie-01.webm',
    title: '窓辺の光の一日',
    subtitle: '朝から夕方まで、窓から入る光の移ろい',
    scene: windowLight,
    duration: 31,
  },
  {
    file: 'movie-02.webm',
    title: '約物と行間',
    subtitle: '本文の組み方を、三つの段階で比べる',
    scene: typesetting,
    duration: 31,
  },
  {
    file: 'movie-03.webm',
    title: '漆を塗り重ねる',
    subtitle: '塗りと研ぎを繰り返す工程を、断面で見る',
    scene: lacquer,
    duration: 30,
  },
  {
    file: 'movie-04.webm',
    title: '再生素材ができるまで',
    subtitle: '回収から成形まで、四つの工程',
    scene: recycling,
    duration: 31,
  },
  {
    file: 'movie-05.webm',
    title: 'ボリュームを探る',
    subtitle: '模型で比べた四つの配置案',
    scene: massing,
    duration: 31,
  },
  {
    file: 'movie-06.webm',
    title: '情報を削るポスター',
    subtitle: '一枚のポスターから、要素を外していく',
    scene: poster,
    duration: 31,
  },
];

async function render(movie, outDir) {
  const frames = Math.round(movie.duration * FPS);
  const ff = spawn(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${W}x${H}`,
      '-r',
      String(FPS),
      '-i',
      '-',
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '44',
      '-row-mt',
      '1',
      '-deadline',
      'good',
      '-cpu-used',
      '2',
      '-g',
      String(FPS * 4),
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-metadata',
      `title=${movie.title}`,
      `${outDir}/${movie.file}`,
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const done = new Promise((resolve, reject) =>
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`)))),
  );
  for (let f = 0; f < frames; f++) {
    const t = f / FPS;
    const body = frameWithCards(t, movie.duration, movie.title, movie.subtitle, movie.scene);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
    const raw = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    if (!ff.stdin.write(raw)) await new Promise((r) => ff.stdin.once('drain', r));
  }
  ff.stdin.end();
  await done;
}

const [outDir = 'assets/demo', only] = process.argv.slice(2);
if (outDir === '--stills') {
  // Contact sheet of stills: each movie at a few moments.
  const times = [1.5, 6, 11, 16, 21, 26];
  const comps = [];
  for (const [i, movie] of MOVIES.entries()) {
    for (const [j, t] of times.entries()) {
      const body = frameWithCards(t, movie.duration, movie.title, movie.subtitle, movie.scene);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
      comps.push({
        input: await sharp(Buffer.from(svg)).resize(320, 180).png().toBuffer(),
        left: j * 325,
        top: i * 185,
      });
    }
  }
  await sharp({ create: { width: 6 * 325, height: 6 * 185, channels: 3, background: '#fff' } })
    .composite(comps)
    .png()
    .toFile(only ?? 'movie-stills.png');
  process.exit(0);
}
for (const [i, movie] of MOVIES.entries()) {
  if (only !== undefined && Number(only) !== i) continue;
  await render(movie, outDir);
  const file = `${outDir}/${movie.file}`;
  console.log(`${movie.file}\t${fs.statSync(file).size} bytes\t${movie.duration} s`);
}
