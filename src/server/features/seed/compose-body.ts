import 'server-only';
import { escapeHtml } from '@/lib/text/escape-html';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import type { ArticleProse, FormatKey, Passage, TopicKey } from './demo-data';

/**
 * Composes a demo article body from the passages of assets/demo/content/article-prose.json. Deterministic (a PRNG seeded
 * by the post number), so the seed writes the same corpus every time, and varied enough that no
 * two bodies are alike: each post has its own subject, opening, passage order, quote and list.
 * The members' divider follows the opening.
 */

export type BodyInput = {
  seed: number;
  topic: TopicKey;
  format: FormatKey;
  /** A noun phrase naming what the post is about, woven into the opening and closing. */
  subject: string;
  /** Interviews: the (fictional) person interviewed. */
  person?: { name: string; role: string };
  /** Reports: from an exhibition, rather than from a workshop, a town or a building. */
  exhibition?: boolean;
  figure: { url: string; alt: string; width: number; height: number };
};

/** Mulberry32: small, fast and good enough to shuffle text. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function pickOne<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length) % items.length]!;
}

function fill(template: string, input: BodyInput): string {
  return template
    .replaceAll('{s}', input.subject)
    .replaceAll('{n}', input.person?.name ?? '')
    .replaceAll('{r}', input.person?.role ?? '');
}

const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
const h2 = (text: string) => `<h2>${escapeHtml(text)}</h2>`;

export function composeBody(prose: ArticleProse, input: BodyInput): string {
  const random = prng(input.seed * 7919 + 17);
  const topic = prose.topics[input.topic];
  const [a, b, c, d, e, f] = shuffled(topic.passages, random) as [
    Passage,
    Passage,
    Passage,
    Passage,
    Passage,
    Passage,
  ];
  const passageSet = input.format === 'report' && !input.exhibition ? 'visit' : input.format;
  const formatPool = shuffled(prose.formats[passageSet], random);
  const generalPool = shuffled(
    prose.formats.article.filter((g) => !formatPool.slice(0, 2).includes(g)),
    random,
  );
  const [f1, f2] = formatPool as [Passage, Passage];
  const [g1, g2, g3] = generalPool as [Passage, Passage, Passage];
  // In an interview the quoted passages are the interviewee speaking: say so.
  const says = (text: string) => (input.person ? [p(fill(text, input))] : []);
  const opening =
    input.format === 'interview' && input.person
      ? pickOne(prose.interviewOpenings, random)
      : pickOne(prose.openings, random);
  const closing = pickOne(prose.closings, random);
  const quote = pickOne(topic.quotes, random);
  const list = pickOne(topic.lists, random);
  const caption = pickOne(topic.captions, random);
  const { url, alt, width, height } = input.figure;

  return [
    p(fill(opening, input)),
    // The opening is the lead readers without access see.
    MEMBERS_DIVIDER.html,
    h2(a.h),
    p(a.p),
    ...says('{n}さんは、自身の仕事の進め方についてこう振り返る。'),
    p(f1.p),
    `<figure><img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}" width="${width}" height="${height}" loading="lazy"><figcaption>${escapeHtml(caption)}</figcaption></figure>`,
    h2(b.h),
    p(b.p),
    `<blockquote><p>${escapeHtml(`「${quote.replace(/。$/, '')}」`)}</p></blockquote>`,
    p(g1.p),
    h2(c.h),
    p(c.p),
    p(f.p),
    `<h3>${escapeHtml(list.title)}</h3>`,
    `<ul>${list.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
    p(d.p),
    h2(f2.h),
    ...says('話題は、これからの仕事のあり方にも及んだ。'),
    p(f2.p),
    p(e.p),
    p(g2.p),
    p(g3.p),
    p(fill(closing, input)),
  ].join('');
}
