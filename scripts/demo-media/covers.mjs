// Makes the demo covers assets/demo/cover-17.jpg … cover-32.jpg: abstract compositions in the
// palette of covers 1–16 (flat shapes, muted colours, the accent yellow at most once), drawn as
// SVG and written as small JPEGs by sharp (Next.js's image library). Describe each new cover
// for `alt` in COVER_ALTS (src/server/features/seed/demo-media.ts).
//
//   node scripts/demo-media/covers.mjs [outDir]
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { createRequire } from 'node:module';
import process from 'node:process';

const sharp = createRequire(import.meta.url)('sharp');

const W = 1200;
const H = 675;
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

const rect = (x, y, w, h, fill, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" ${extra}/>`;
const circle = (cx, cy, r, fill, extra = '') =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" ${extra}/>`;

// Deterministic pseudo-random numbers, so the covers are reproducible.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const motifs = {
  ripples: ({ bg, ring, accent }) => {
    let s = rect(0, 0, W, H, bg);
    for (let r = 46; r < 900; r += 52)
      s += circle(380, 420, r, 'none', `stroke="${ring}" stroke-width="5"`);
    s += circle(380, 420, 22, accent);
    return s;
  },
  tiles: ({ bg, tile, alt, accent }, seed) => {
    const random = prng(seed);
    let s = rect(0, 0, W, H, bg);
    const size = 70;
    const gap = 22;
    const cols = 10;
    const rows = 6;
    const x0 = (W - (cols * size + (cols - 1) * gap)) / 2;
    const y0 = (H - (rows * size + (rows - 1) * gap)) / 2;
    const odd = [Math.floor(random() * cols), Math.floor(random() * rows)];
    for (let c = 0; c < cols; c++)
      for (let r = 0; r < rows; r++) {
        const x = x0 + c * (size + gap);
        const y = y0 + r * (size + gap);
        if (c === odd[0] && r === odd[1]) {
          s += rect(
            x,
            y,
            size,
            size,
            accent,
            `transform="rotate(18 ${x + size / 2} ${y + size / 2})"`,
          );
        } else s += rect(x, y, size, size, random() < 0.3 ? alt : tile);
      }
    return s;
  },
  layers: ({ bg, colors }) => {
    let s = rect(0, 0, W, H, bg);
    let y = 150;
    colors.forEach((color, i) => {
      const h = 26 + (i % 3) * 14;
      const inset = 120 + ((i * 37) % 90);
      s += rect(inset, y, W - inset * 2, h, color, 'rx="4"');
      y += h + 10;
    });
    return s;
  },
  steps: ({ bg, a, b, line }) => {
    let s = rect(0, 0, W, H, bg);
    for (let i = 0; i < 7; i++) {
      const x = 140 + i * 130;
      const h = 80 + i * 62;
      s += rect(x, H - 90 - h, 130, h, i % 2 ? a : b);
    }
    s += `<line x1="80" y1="${H - 90}" x2="${W - 80}" y2="${H - 90}" stroke="${line}" stroke-width="3"/>`;
    return s;
  },
  waves: ({ bg, stroke, accent }) => {
    let s = rect(0, 0, W, H, bg);
    for (let k = 0; k < 14; k++) {
      const y = 110 + k * 34;
      let d = `M 0 ${y}`;
      for (let x = 0; x <= W; x += 20)
        d += ` L ${x} ${(y + Math.sin((x / W) * Math.PI * 3 + k * 0.35) * 26).toFixed(1)}`;
      s += `<path d="${d}" fill="none" stroke="${k === 9 ? accent : stroke}" stroke-width="${k === 9 ? 6 : 3}"/>`;
    }
    return s;
  },
  balance: ({ bg, disc, bar, small }) =>
    rect(0, 0, W, H, bg) +
    circle(470, 340, 210, disc) +
    rect(720, 110, 120, 460, bar) +
    circle(900, 520, 46, small) +
    `<line x1="120" y1="570" x2="1080" y2="570" stroke="${bar}" stroke-width="3"/>`,
  halftone: ({ bg, dot, accent }) => {
    let s = rect(0, 0, W, H, bg);
    const step = 68;
    for (let x = step / 2; x < W; x += step)
      for (let y = step / 2; y < H; y += step) {
        const t = (x / W) * 0.7 + (y / H) * 0.3;
        const r = 4 + t * 25;
        s += circle(x, y, r.toFixed(1), dot);
      }
    s += circle(W - 180, H - 140, 17, accent);
    return s;
  },
  frames: ({ bg, line, fill }) => {
    // Thin outlines of nested frames, like a plan seen from above.
    let s = rect(0, 0, W, H, bg);
    s += rect(180, 110, 840, 455, 'none', `stroke="${line}" stroke-width="3"`);
    s += rect(180, 110, 300, 455, fill);
    s += rect(540, 170, 220, 160, 'none', `stroke="${line}" stroke-width="3"`);
    s += rect(800, 170, 160, 335, 'none', `stroke="${line}" stroke-width="3"`);
    s += rect(540, 370, 220, 135, 'none', `stroke="${line}" stroke-width="3"`);
    return s;
  },
};

const covers = [
  ['ripples', { bg: C.mist, ring: C.steel, accent: C.navy }],
  ['tiles', { bg: C.paper, tile: C.tan, alt: C.brown, accent: C.yellow }, 3],
  [
    'layers',
    {
      bg: C.beige,
      colors: [C.brown, C.terracotta, C.tan, C.brown, C.ink, C.terracotta, C.tan, C.ink, C.brown],
    },
  ],
  ['steps', { bg: C.paper, a: C.slate, b: C.steel, line: C.ink }],
  ['waves', { bg: C.navy, stroke: C.steel, accent: C.yellow }],
  ['balance', { bg: C.beige, disc: C.terracotta, bar: C.ink, small: C.sage }],
  ['halftone', { bg: C.paper, dot: C.ink, accent: C.yellow }],
  ['frames', { bg: C.paper, line: C.ink, fill: C.sage }],
  ['ripples', { bg: C.ink, ring: C.slate, accent: C.yellow }],
  ['tiles', { bg: C.navy, tile: C.slate, alt: C.steel, accent: C.paper }, 11],
  [
    'layers',
    {
      bg: C.mist,
      colors: [C.navy, C.steel, C.slate, C.navy, C.sage, C.steel, C.navy, C.slate, C.sage],
    },
  ],
  ['steps', { bg: C.beige, a: C.terracotta, b: C.brown, line: C.brown }],
  ['waves', { bg: C.paper, stroke: C.sage, accent: C.terracotta }],
  ['balance', { bg: C.ink, disc: C.paper, bar: C.yellow, small: C.steel }],
  ['halftone', { bg: C.navy, dot: C.steel, accent: C.paper }],
  ['frames', { bg: C.ink, line: C.tan, fill: C.brown }],
];

const out = process.argv[2] ?? 'assets/demo';
for (const [i, [motif, colors, seed]] of covers.entries()) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${motifs[motif](colors, seed ?? 1)}</svg>`;
  const file = `${out}/cover-${String(i + 17).padStart(2, '0')}.jpg`;
  await sharp(Buffer.from(svg))
    .jpeg({ quality: 74, progressive: true, mozjpeg: true, chromaSubsampling: '4:2:0' })
    .withMetadata({ density: 72 })
    .toFile(file);
}
console.log(`${covers.length} covers in ${out}`);
