import 'server-only';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { JOB_CHOICES } from '@/lib/jobs';
import { POST_FORMATS } from '@/lib/cms/model';
import { DEMO_ASSETS_DIR } from './demo-media';

/**
 * The demo corpus as editors write it: JSON files in assets/demo/content (see the README there),
 * read and checked here when the seed runs. Keys such as `tanaka` or `architecture` name an item
 * across files (a post's writers, an audio's speakers); the seed turns them into stable ids.
 */

export const DEMO_CONTENT_SUBDIR = 'content';

/** Where the demo corpus's files are: resolved from the working directory at run time, like the
 * shipped media (seed.ts), and kept out of the build's file tracing. */
export function demoContentDir(): string {
  return path.resolve(
    /* turbopackIgnore: true */ process.cwd(),
    DEMO_ASSETS_DIR,
    DEMO_CONTENT_SUBDIR,
  );
}

export const TOPIC_KEYS = [
  'architecture',
  'graphic',
  'product',
  'typography',
  'sustainability',
  'craft',
] as const;
export type TopicKey = (typeof TOPIC_KEYS)[number];
export type FormatKey = (typeof POST_FORMATS)[number];

const text = z.string().min(1);
const key = z.string().regex(/^[a-z][a-z0-9-]*$/);
const isoDate = z.iso.datetime();
const coverNumber = z.number().int().min(1);
const file = z.string().regex(/^[a-z0-9-]+\.(png|jpg)$/);

const writer = z.strictObject({
  name: text,
  nameKana: text,
  role: text,
  profile: text,
  avatar: file.optional(),
});

const category = z.strictObject({
  name: text,
  description: text,
  cover: coverNumber,
  issueNumber: z.number().int().positive(),
  publishedAt: isoDate,
  isFeatured: z.boolean().optional(),
  /** Covers that suit the category, in the order its posts take them. */
  postCovers: z.array(coverNumber).min(1),
});

const series = z.strictObject({
  title: text,
  description: text,
  cover: coverNumber,
  writers: z.array(key).min(1),
});

const post = z.strictObject({
  title: text,
  subject: text,
  description: text,
  category: z.enum(TOPIC_KEYS),
  format: z.enum(POST_FORMATS),
  tags: z.array(key),
  writers: z.array(key).min(1),
  series: key.optional(),
  person: z.strictObject({ name: text, role: text }).optional(),
});

const audio = z.strictObject({
  title: text,
  description: text,
  cover: coverNumber,
  writers: z.array(key).min(1),
  lines: z.array(z.strictObject({ speaker: key, text })).min(3),
});

const movie = z.strictObject({
  title: text,
  description: text,
  cover: coverNumber,
  writers: z.array(key).min(1),
  isPublicPreview: z.boolean().optional(),
});

const connect = z.strictObject({
  id: key,
  title: text,
  description: text,
  cover: coverNumber,
  publishedAt: isoDate,
  /** The body's HTML, one block a line (joined without separators). */
  body: z.array(text).min(1),
});

const partner = z.strictObject({ name: text, description: text, logo: file });

const job = z.strictObject({
  slug: key,
  partner: key,
  title: text,
  description: text,
  employmentType: z.enum(JOB_CHOICES.employmentType),
  location: text,
  salary: text,
  closingDate: z.iso.date(),
  cover: coverNumber,
  duties: text,
  requirements: z.array(text).min(1),
  welcome: z.array(text).min(1),
  /** The structured conditions (the /jobs filters and JobPosting read them). */
  conditions: z.strictObject({
    occupation: z.enum(JOB_CHOICES.occupation),
    prefecture: z.enum(JOB_CHOICES.prefecture).nullable(),
    remote: z.enum(JOB_CHOICES.remote),
    salary: z.tuple([
      z.enum(JOB_CHOICES.salaryUnit),
      z.number().int().positive(),
      z.number().int().nullable(),
    ]),
    hours: text,
  }),
});

const passage = z.strictObject({ h: text, p: text });
export type Passage = z.infer<typeof passage>;

const topicProse = z.strictObject({
  passages: z.array(passage).min(6),
  quotes: z.array(text).min(1),
  lists: z.array(z.strictObject({ title: text, items: z.array(text).min(1) })).min(1),
  captions: z.array(text).min(1),
});

/** What article bodies are composed from (compose-body.ts). In openings and closings `{s}` is
 * the post's subject, `{n}` the interviewee, `{r}` their role. A report is from an exhibition
 * (`report`) or from a place (`visit`). */
const articleProse = z.strictObject({
  topics: z.record(z.enum(TOPIC_KEYS), topicProse),
  formats: z.record(z.enum([...POST_FORMATS, 'visit']), z.array(passage).min(3)),
  openings: z.array(text).min(1),
  interviewOpenings: z.array(text).min(1),
  closings: z.array(text).min(1),
});
export type ArticleProse = z.infer<typeof articleProse>;

/** Each file and what it holds. */
const FILES = {
  writers: ['writers.json', z.record(key, writer)],
  tags: ['tags.json', z.record(key, text)],
  categories: ['categories.json', z.record(z.enum(TOPIC_KEYS), category)],
  series: ['series.json', z.record(key, series)],
  posts: ['posts.json', z.array(post).min(1)],
  audios: ['audios.json', z.array(audio)],
  movies: ['movies.json', z.array(movie)],
  connect: ['connect.json', z.array(connect)],
  partners: ['partners.json', z.record(key, partner)],
  jobs: ['jobs.json', z.array(job)],
  jobBenefits: [
    'job-benefits.json',
    z.record(z.enum(JOB_CHOICES.employmentType), z.array(text).min(1)),
  ],
  prose: ['article-prose.json', articleProse],
} as const satisfies Record<string, readonly [string, z.ZodType]>;

export type DemoData = { [K in keyof typeof FILES]: z.infer<(typeof FILES)[K][1]> };

async function readFile<K extends keyof typeof FILES>(dir: string, name: K): Promise<DemoData[K]> {
  const [fileName, schema] = FILES[name];
  const where = path.join(/* turbopackIgnore: true */ dir, fileName);
  const parsed = schema.safeParse(JSON.parse(await fs.readFile(where, 'utf8')));
  if (!parsed.success) throw new Error(`${where}: ${z.prettifyError(parsed.error)}`);
  return parsed.data as DemoData[K];
}

/** Every key a file uses must name an item of the file it points into. */
function checkReferences(data: DemoData): void {
  const problems: string[] = [];
  const need = (known: object, used: readonly string[], where: string) => {
    for (const k of used) if (!(k in known)) problems.push(`${where}: unknown "${k}"`);
  };
  for (const [k, s] of Object.entries(data.series)) need(data.writers, s.writers, `series ${k}`);
  data.posts.forEach((p, i) => {
    const where = `posts[${i}]`;
    need(data.writers, p.writers, where);
    need(data.tags, p.tags, where);
    need(data.series, p.series ? [p.series] : [], where);
  });
  data.audios.forEach((a, i) => {
    need(data.writers, [...a.writers, ...a.lines.map((l) => l.speaker)], `audios[${i}]`);
  });
  data.movies.forEach((m, i) => need(data.writers, m.writers, `movies[${i}]`));
  data.jobs.forEach((j) => need(data.partners, [j.partner], `jobs ${j.slug}`));
  if (problems.length)
    throw new Error(`The demo corpus does not hold together:\n${problems.join('\n')}`);
}

/** Reads and checks the demo corpus's files (default: demoContentDir()). */
export async function loadDemoData(dir: string = demoContentDir()): Promise<DemoData> {
  const names = Object.keys(FILES) as (keyof typeof FILES)[];
  const values = await Promise.all(names.map((name) => readFile(dir, name)));
  const data = Object.fromEntries(names.map((name, i) => [name, values[i]])) as DemoData;
  checkReferences(data);
  return data;
}
