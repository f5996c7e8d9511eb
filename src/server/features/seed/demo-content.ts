import 'server-only';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { escapeHtml } from '@/lib/text/escape-html';
import { composeBody } from './compose-body';
import { type DemoData, type TopicKey, loadDemoData } from './demo-data';
import { DEMO_COVER_COUNT, demoCover, demoFile, demoImage, demoSeconds } from './demo-media';

/**
 * The demo corpus's items, built from its files (demo-data.ts, assets/demo/content): a
 * realistic, entirely fictional set of content for every list endpoint, in the order it must be
 * written (an item's references before the item). Ids are stable, so the seed can tell what is
 * already there. What is computed here rather than written: ids, publication dates, which cover
 * each post takes, series order, related posts, and the article bodies (compose-body.ts).
 * Object pages live in demo-pages.ts.
 */

export type DemoItem = { id: string; body: Record<string, unknown> };
export type DemoList = { endpoint: string; items: readonly DemoItem[] };

type PostSpec = DemoData['posts'][number];

const writerId = (key: string) => `writer-${key}`;
const tagId = (key: string) => `tag-${key}`;
const categoryId = (key: TopicKey) => `cat-${key}`;
const seriesId = (key: string) => `series-${key}`;
const partnerId = (key: string) => `partner-${key}`;

const pad2 = (n: number) => String(n).padStart(2, '0');
const pad3 = (n: number) => String(n).padStart(3, '0');
export const postId = (n: number) => `post-${pad3(n)}`;

/** A keyed file's entries in the order written. */
const entries = <T>(record: Partial<Record<string, T>>) => Object.entries(record) as [string, T][];

// ---------------------------------------------------------------------------------------------
// Posts

const DAY = 86_400_000;
const FIRST_POST = Date.UTC(2025, 5, 3); // 2025-06-03 09:00 JST
const LAST_POST = Date.UTC(2026, 10, 20); // 2026-11-20 09:00 JST

/** Distinct days spread evenly from June 2025 to November 2026, in the morning (JST). */
function postPublishedAt(index: number, total: number): string {
  const days = Math.round(((LAST_POST - FIRST_POST) / DAY) * (index / (total - 1)));
  const minutes = (index * 37) % 180; // 09:00–11:59 JST
  return new Date(FIRST_POST + days * DAY + minutes * 60_000).toISOString();
}

/**
 * How close the same cover may come: within this many posts in publication order (a page of
 * cards, the home page's lists), and within this many posts of the same category, series,
 * format or tag (the lists of a feature, a series, インサイト, a tag).
 */
const COVER_GAP_ALL = 8;
const COVER_GAP_GROUP = 3;

/**
 * Each post's cover, in publication order: the next cover of its category (its `postCovers`)
 * that no neighbour in any listing already shows, so that the same picture never sits side by
 * side.
 */
function assignCovers(data: DemoData): number[] {
  const posts = data.posts;
  const chosen: number[] = [];
  const turn = new Map<TopicKey, number>();
  const everyCover = Array.from({ length: DEMO_COVER_COUNT }, (_, i) => i + 1);
  posts.forEach((spec, index) => {
    const taken = new Set(chosen.slice(Math.max(0, index - COVER_GAP_ALL)));
    const sameGroup = [
      (p: PostSpec) => p.category === spec.category,
      (p: PostSpec) => p.format === spec.format,
      (p: PostSpec) => spec.series !== undefined && p.series === spec.series,
      ...spec.tags.map((tag) => (p: PostSpec) => p.tags.includes(tag)),
    ];
    for (const inGroup of sameGroup) {
      const earlier = chosen.filter((_, j) => j < index && inGroup(posts[j]!));
      for (const cover of earlier.slice(-COVER_GAP_GROUP)) taken.add(cover);
    }
    const own = data.categories[spec.category].postCovers;
    const start = turn.get(spec.category) ?? 0;
    const rotated = own.map((_, k) => own[(start + k) % own.length]!);
    const cover = [...rotated, ...everyCover].find((n) => !taken.has(n));
    if (cover === undefined) throw new Error(`No free cover for post ${index + 1}`);
    turn.set(spec.category, start + 1);
    chosen.push(cover);
  });
  return chosen;
}

function buildPosts(data: DemoData): DemoItem[] {
  const seriesCount = new Map<string, number>();
  const seriesPrevious = new Map<string, string>();
  const byCategory = new Map<TopicKey, string[]>();
  const covers = assignCovers(data);

  return data.posts.map((spec, index) => {
    const id = postId(index + 1);
    const coverNumber = covers[index]!;
    // The figure in the body: the picture after the cover in its category's order.
    const own = data.categories[spec.category].postCovers;
    const figure = demoCover(own[(own.indexOf(coverNumber) + 1 + own.length) % own.length]!);

    const body: Record<string, unknown> = {
      title: spec.title,
      description: spec.description,
      coverImage: demoCover(coverNumber),
      body: composeBody(data.prose, {
        seed: index + 1,
        topic: spec.category,
        format: spec.format,
        subject: spec.subject,
        person: spec.person,
        exhibition: spec.tags.includes('exhibition'),
        figure,
      }),
      isPublicPreview: index % 6 === 1,
      format: [spec.format],
      category: categoryId(spec.category),
      tags: spec.tags.map(tagId),
      writers: spec.writers.map(writerId),
      publishedAt: postPublishedAt(index, data.posts.length),
    };

    const related: string[] = [];
    if (spec.series) {
      const order = (seriesCount.get(spec.series) ?? 0) + 1;
      seriesCount.set(spec.series, order);
      body.series = seriesId(spec.series);
      body.seriesOrder = order;
      const previous = seriesPrevious.get(spec.series);
      if (previous) related.push(previous);
      seriesPrevious.set(spec.series, id);
    }
    const sameCategory = byCategory.get(spec.category) ?? [];
    if (index % 3 === 0 && sameCategory.length >= 2) {
      related.push(...sameCategory.slice(-2).reverse());
    }
    if (related.length) body.relatedPosts = [...new Set(related)];
    byCategory.set(spec.category, [...sameCategory, id]);
    return { id, body };
  });
}

// ---------------------------------------------------------------------------------------------
// Audio (podcast) and movies

/**
 * 「デザインの余白」, a short talk every two months, as its transcript: the first two lines are
 * the lead (the members' divider follows them), each speaker named by family name. Each
 * episode's file is its transcript spoken: change a line and make the file again
 * (scripts/demo-media/speak.ts).
 */
function transcript(data: DemoData, lines: DemoData['audios'][number]['lines']): string {
  return lines
    .map(
      ({ speaker, text }, i) =>
        `${i === 2 ? MEMBERS_DIVIDER.html : ''}<p><strong>${data.writers[speaker]!.name.split(' ')[0]}</strong>\u3000${text}</p>`,
    )
    .join('');
}

function monthly(start: number, index: number, stepDays: number): string {
  return new Date(start + index * stepDays * DAY).toISOString();
}

function buildAudios(data: DemoData): DemoItem[] {
  return data.audios.map((a, i) => {
    const file = `audio-${pad2(i + 1)}.mp3`;
    return {
      id: `audio-${pad3(i + 1)}`,
      body: {
        title: a.title,
        description: a.description,
        coverImage: demoCover(a.cover),
        audioFile: demoFile(file),
        duration: demoSeconds(file),
        transcript: transcript(data, a.lines),
        isPublicPreview: i === 0,
        writers: a.writers.map(writerId),
        publishedAt: monthly(Date.UTC(2025, 8, 12, 1), i, 61),
      },
    };
  });
}

/** Short silent animations, each with its own file (demo-media.ts). */
function buildMovies(data: DemoData): DemoItem[] {
  return data.movies.map((m, i) => {
    const file = `movie-${pad2(i + 1)}.webm`;
    return {
      id: `movie-${pad3(i + 1)}`,
      body: {
        title: m.title,
        description: m.description,
        coverImage: demoCover(m.cover),
        videoFile: demoFile(file),
        duration: demoSeconds(file),
        isPublicPreview: m.isPublicPreview === true,
        writers: m.writers.map(writerId),
        publishedAt: monthly(Date.UTC(2025, 9, 20, 1), i, 67),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Connect (members' community pages)

/** The members' divider after the first paragraph: that paragraph is the lead. */
const withDivider = (body: string) => body.replace('</p>', `</p>${MEMBERS_DIVIDER.html}`);

function buildConnect(data: DemoData): DemoItem[] {
  return data.connect.map((c) => ({
    id: c.id,
    body: {
      title: c.title,
      description: c.description,
      coverImage: demoCover(c.cover),
      body: withDivider(c.body.join('')),
      publishedAt: c.publishedAt,
    },
  }));
}

// ---------------------------------------------------------------------------------------------
// Partners and jobs (all fictional companies; web addresses on example.com)

function buildPartners(data: DemoData): DemoItem[] {
  return entries(data.partners).map(([key, p], i) => ({
    id: partnerId(key),
    body: {
      name: p.name,
      description: p.description,
      logo: demoImage(p.logo, `${p.name}のロゴ`),
      website: `https://example.com/partners/${key}`,
      publishedAt: monthly(Date.UTC(2025, 6, 1, 1), i, 30),
    },
  }));
}

const ul = (items: readonly string[]) =>
  `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;

function buildJobs(data: DemoData): DemoItem[] {
  return data.jobs.map((job, i) => {
    const partner = data.partners[job.partner]!;
    const body = [
      `<p>${escapeHtml(partner.description)}</p>`,
      '<h2>仕事内容</h2>',
      `<p>${escapeHtml(job.duties)}</p>`,
      '<h2>応募資格</h2>',
      ul(job.requirements),
      '<h3>歓迎する経験</h3>',
      ul(job.welcome),
      '<h2>雇用形態・勤務地・給与</h2>',
      ul([`雇用形態：${job.employmentType}`, `勤務地：${job.location}`, `給与：${job.salary}`]),
      '<h2>待遇・福利厚生</h2>',
      ul(data.jobBenefits[job.employmentType]),
      '<h2>選考の流れ</h2>',
      '<ol><li>応募フォームから書類（履歴書、職務経歴書、ポートフォリオ）を提出</li><li>書類選考</li><li>面接（1〜2回）</li><li>内定</li></ol>',
      `<p>応募の締切は${job.closingDate.replace(/^(\d{4})-0?(\d+)-0?(\d+)$/, '$1年$2月$3日')}です。選考の結果は、応募から2週間以内にご連絡します。</p>`,
    ].join('');
    const c = job.conditions;
    return {
      id: `job-${pad3(i + 1)}`,
      body: {
        title: job.title,
        partner: partnerId(job.partner),
        description: job.description,
        coverImage: demoCover(job.cover),
        body,
        employmentType: [job.employmentType],
        occupation: [c.occupation],
        prefecture: c.prefecture ? [c.prefecture] : [],
        remote: [c.remote],
        location: job.location,
        salaryUnit: [c.salary[0]],
        salaryMin: c.salary[1],
        ...(c.salary[2] === null ? {} : { salaryMax: c.salary[2] }),
        hours: c.hours,
        applyUrl: `https://example.com/recruit/${job.slug}`,
        closingDate: `${job.closingDate}T23:59:59+09:00`,
        publishedAt: monthly(Date.UTC(2026, 6, 1, 1), i, 13),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------

function buildWriters(data: DemoData): DemoItem[] {
  return entries(data.writers).map(([key, w]) => {
    const body: Record<string, unknown> = {
      name: w.name,
      nameKana: w.nameKana,
      role: w.role,
      profile: w.profile,
      website: `https://example.com/writers/${key}`,
    };
    if (w.avatar) body.avatar = demoImage(w.avatar, `${w.name}のイメージ（抽象的な図形）`);
    return { id: writerId(key), body };
  });
}

function buildTags(data: DemoData): DemoItem[] {
  return entries(data.tags).map(([key, name]) => ({ id: tagId(key), body: { name } }));
}

/**
 * One feature issue a quarter, from the site's launch in June 2025, in issue order; the newest
 * is the current one (isFeatured). An issue gathers the posts of its theme, earlier ones
 * included.
 */
function buildCategories(data: DemoData): DemoItem[] {
  const issues = entries(data.categories).sort(([, a], [, b]) => a.issueNumber - b.issueNumber);
  return issues.map(([key, c]) => ({
    id: categoryId(key as TopicKey),
    body: {
      name: c.name,
      description: c.description,
      coverImage: demoCover(c.cover),
      issueNumber: c.issueNumber,
      isFeatured: c.isFeatured === true,
      publishedAt: c.publishedAt,
    },
  }));
}

function buildSeries(data: DemoData): DemoItem[] {
  return entries(data.series).map(([key, s]) => ({
    id: seriesId(key),
    body: {
      title: s.title,
      description: s.description,
      coverImage: demoCover(s.cover),
      writers: s.writers.map(writerId),
    },
  }));
}

/** Every list endpoint's demo items, in an order where references come first. */
export async function demoLists(data?: DemoData): Promise<DemoList[]> {
  const d = data ?? (await loadDemoData());
  return [
    { endpoint: 'writers', items: buildWriters(d) },
    { endpoint: 'tags', items: buildTags(d) },
    { endpoint: 'categories', items: buildCategories(d) },
    { endpoint: 'series', items: buildSeries(d) },
    { endpoint: 'posts', items: buildPosts(d) },
    { endpoint: 'audios', items: buildAudios(d) },
    { endpoint: 'movies', items: buildMovies(d) },
    { endpoint: 'connect', items: buildConnect(d) },
    { endpoint: 'partners', items: buildPartners(d) },
    { endpoint: 'jobs', items: buildJobs(d) },
  ];
}
