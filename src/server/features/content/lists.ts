import 'server-only';
import { cache } from 'react';
import {
  EMPLOYMENT_TYPES,
  type EmploymentType,
  FULL_REMOTE,
  OCCUPATIONS,
  type Occupation,
  PREFECTURES,
  type Prefecture,
  openListingsFilter,
} from '@/lib/jobs';
import { z } from '@/lib/zod';
import {
  type ContentQueries,
  getFreePlanPostIds,
  isContentRequestError,
  oncePerSchema,
} from './client';
import {
  CONTENT_ID,
  categorySchema,
  connectSchema,
  imageSchema,
  jobSchema,
  seriesSchema,
} from './schemas';
import { siteContent } from './site-content';
import { bodyCharacters } from '@/lib/access/lead';

/**
 * The lists the reading pages show, each read with only the fields a card needs. One place
 * for the queries, so pages stay thin and the same list reads the same way everywhere.
 */

export const LIST_PAGE_SIZE = 12;

/**
 * The system fields a card reads: its id and the date it shows. Not `updatedAt` or `revisedAt`,
 * which every edit moves: a card that read them would be renewed at each edit of its item.
 */
const SYSTEM = 'id,createdAt,publishedAt';
const cardMeta = { id: z.string(), createdAt: z.string(), publishedAt: z.string().optional() };
const named = z.object({ id: z.string(), name: z.string() });

export const postCardSchema = z.object({
  ...cardMeta,
  title: z.string(),
  coverImage: imageSchema.optional(),
  isPublicPreview: z.boolean(),
  format: z.array(z.string()),
  category: named.nullable(),
  series: z.object({ id: z.string(), title: z.string() }).nullable(),
  seriesOrder: z.number().optional(),
  writers: z.array(named),
});
export type PostCard = z.infer<typeof postCardSchema> & {
  /** In the free-plan list: a free account opens it (its card says 会員限定, not 有料会員限定). */
  inFreePlan: boolean;
  /**
   * Characters of the body's text (bodyCharacters), for the card's reading time: only the
   * count leaves this module, never the body (a members' post's card is public).
   */
  characters?: number;
};

/**
 * The free-plan list, read once per request: the same for every viewer, so a card's access
 * label (src/lib/access/access-label.ts) does not depend on who looks.
 */
const freePlanPostIds = cache(
  async (): Promise<ReadonlySet<string>> => new Set(await getFreePlanPostIds(siteContent())),
);

const POST_CARD_FIELDS = `${SYSTEM},title,coverImage,isPublicPreview,format,category.id,category.name,series.id,series.title,seriesOrder,writers.id,writers.name`;

/** One schema object per read, so the client keeps its validated answer (validated()). */
const postCardsSchema = z.object({
  contents: z.array(postCardSchema.extend({ body: z.string().optional() })),
  totalCount: z.number(),
});
const pageSchema = oncePerSchema(<T>(schema: z.ZodType<T>) =>
  z.object({ contents: z.array(schema), totalCount: z.number() }),
);

export type Page<T> = { items: T[]; totalCount: number; page: number; totalPages: number };

function paged<T>(contents: T[], totalCount: number, page: number, size: number): Page<T> {
  return {
    items: contents,
    totalCount,
    page,
    totalPages: Math.max(1, Math.ceil(totalCount / size)),
  };
}

/** One page of a list endpoint, newest published first, with only the fields a card needs. */
async function readPage<T>(
  endpoint: string,
  schema: z.ZodType<T>,
  fields: string,
  page: number,
  size: number,
  filters?: string,
): Promise<Page<T>> {
  const answer = await siteContent().get({
    endpoint,
    queries: {
      limit: size,
      offset: (page - 1) * size,
      orders: '-publishedAt',
      fields,
      ...(filters ? { filters } : {}),
    },
    schema: pageSchema(schema),
  });
  return paged(answer.contents, answer.totalCount, page, size);
}

/** Only ids the service could hold go into a filter: anything else matches nothing. */
const safeId = (id: string | undefined) => (id && CONTENT_ID.test(id) ? id : undefined);

/** The items one writer wrote or appears in (an author page); an impossible id matches nothing. */
const writerFilter = (writer: string) => `writers[contains]${safeId(writer) ?? '-'}`;
const writerOf = (options: { writer?: string }) =>
  options.writer !== undefined ? writerFilter(options.writer) : undefined;

export async function listPosts(options: {
  page?: number;
  size?: number;
  category?: string;
  tag?: string;
  series?: string;
  writer?: string;
  format?: string;
  orders?: string;
  ids?: string[];
  /** Read each body to count its characters for the card's reading time (default true). */
  readingTime?: boolean;
}): Promise<Page<PostCard>> {
  const page = Math.max(1, options.page ?? 1);
  const size = options.size ?? LIST_PAGE_SIZE;
  const filters = [
    options.category !== undefined ? `category[equals]${safeId(options.category) ?? '-'}` : null,
    options.tag !== undefined ? `tags[contains]${safeId(options.tag) ?? '-'}` : null,
    options.series !== undefined ? `series[equals]${safeId(options.series) ?? '-'}` : null,
    options.writer !== undefined ? writerFilter(options.writer) : null,
    options.format ? `format[contains]${options.format}` : null,
  ].filter(Boolean);
  const [answer, freePlan] = await Promise.all([
    siteContent().get({
      endpoint: 'posts',
      queries: {
        limit: size,
        offset: (page - 1) * size,
        orders: options.orders ?? '-publishedAt',
        fields: options.readingTime === false ? POST_CARD_FIELDS : `${POST_CARD_FIELDS},body`,
        ...(filters.length ? { filters: filters.join('[and]') } : {}),
        ...(options.ids ? { ids: options.ids.filter((id) => CONTENT_ID.test(id)) } : {}),
      },
      schema: postCardsSchema,
    }),
    freePlanPostIds(),
  ]);
  const cards = answer.contents.map((item) => {
    const { body, ...post } = item;
    return {
      ...post,
      inFreePlan: freePlan.has(post.id),
      ...(body === undefined ? {} : { characters: bodyCharacters(item) }),
    };
  });
  return paged(cards, answer.totalCount, page, size);
}

/** The most episodes a series page lists (and a post's series navigation counts). */
export const SERIES_EPISODE_LIMIT = 100;

/**
 * A series' episodes in order: by the editor's 連載内の順番, episodes without one after the
 * others by publication. The series page numbers them and a post's 第N回 says the same.
 */
export const listSeriesEpisodes = cache(
  async (seriesId: string, readingTime = true): Promise<PostCard[]> =>
    (
      await listPosts({
        series: seriesId,
        orders: 'seriesOrder,publishedAt',
        size: SERIES_EPISODE_LIMIT,
        readingTime,
      })
    ).items,
);

/** An audio or a movie as a card: both types carry the same card fields. */
const mediaCardSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  publishedAt: z.string().optional(),
  title: z.string(),
  coverImage: imageSchema.optional(),
  duration: z.number().optional(),
  isPublicPreview: z.boolean(),
  writers: z.array(named),
});
export type MediaCard = z.infer<typeof mediaCardSchema>;

const MEDIA_CARD_FIELDS = `${SYSTEM},title,coverImage,duration,isPublicPreview,writers.id,writers.name`;

/** One page of audios or movies, newest first; with `writer`, only those they appear in. */
export const listAudios = (page = 1, size = LIST_PAGE_SIZE, options: { writer?: string } = {}) =>
  readPage('audios', mediaCardSchema, MEDIA_CARD_FIELDS, page, size, writerOf(options));
export const listMovies = (page = 1, size = LIST_PAGE_SIZE, options: { writer?: string } = {}) =>
  readPage('movies', mediaCardSchema, MEDIA_CARD_FIELDS, page, size, writerOf(options));

/**
 * What every card shows of an item: its title, cover and dates. A card reads only what it shows
 * (a description only where the card prints it): a page is renewed when what it read changes
 * (docs/decisions/044-purge-what-a-change-showed.md), so a field read and not shown costs a
 * render of every page listing the item at each edit of it.
 */
const CARD_FIELDS = {
  id: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  coverImage: true,
} as const;

const connectCardSchema = connectSchema.pick({ ...CARD_FIELDS, description: true });
export type ConnectCard = z.infer<typeof connectCardSchema>;

export const listConnect = (page = 1, size = LIST_PAGE_SIZE): Promise<Page<ConnectCard>> =>
  readPage('connect', connectCardSchema, `${SYSTEM},title,description,coverImage`, page, size);

const jobCardSchema = jobSchema
  .pick({
    ...CARD_FIELDS,
    employmentType: true,
    occupation: true,
    prefecture: true,
    remote: true,
    location: true,
    salaryUnit: true,
    salaryMin: true,
    salaryMax: true,
    closingDate: true,
  })
  .extend({
    partner: z
      .object({ id: z.string(), name: z.string(), logo: imageSchema.optional() })
      .nullable(),
  });
export type JobCard = z.infer<typeof jobCardSchema>;

const JOB_CARD_FIELDS = `${SYSTEM},title,coverImage,employmentType,occupation,prefecture,remote,location,salaryUnit,salaryMin,salaryMax,closingDate,partner.id,partner.name,partner.logo`;

/** The /jobs filters, each one of its vocabulary (src/lib/jobs.ts) or a partner's content id. */
export type JobFilters = {
  employmentType?: EmploymentType;
  occupation?: Occupation;
  /** A prefecture, or 'remote' for フルリモート. */
  location?: Prefecture | 'remote';
  partner?: string;
};

/**
 * The content service's filter for open listings matching `filters`. Only values of the
 * vocabularies go in (a value from a URL that is not one of them is dropped here too), so no
 * request text can change the filter's syntax; a partner id that could not exist matches nothing.
 */
export function jobListFilter(filters: JobFilters, now: Date = new Date()): string {
  const { employmentType, occupation, location, partner } = filters;
  const known = (list: readonly string[], value: string | undefined) =>
    value !== undefined && list.includes(value);
  return [
    openListingsFilter(now),
    known(EMPLOYMENT_TYPES, employmentType) ? `employmentType[contains]${employmentType}` : null,
    known(OCCUPATIONS, occupation) ? `occupation[contains]${occupation}` : null,
    location === 'remote'
      ? `remote[contains]${FULL_REMOTE}`
      : known(PREFECTURES, location)
        ? `prefecture[contains]${location}`
        : null,
    partner !== undefined ? `partner[equals]${safeId(partner) ?? '-'}` : null,
  ]
    .filter(Boolean)
    .join('[and]');
}

/**
 * One page of the open job listings, newest first, narrowed by `filters` (all of them at once).
 * Listings past their closing day leave by themselves: the filter is worked out per request.
 */
export async function listJobs(
  options: JobFilters & { page?: number; size?: number; now?: Date } = {},
): Promise<Page<JobCard>> {
  const page = Math.max(1, options.page ?? 1);
  const size = options.size ?? LIST_PAGE_SIZE;
  const answer = await siteContent().get({
    endpoint: 'jobs',
    queries: {
      limit: size,
      offset: (page - 1) * size,
      orders: '-publishedAt',
      fields: JOB_CARD_FIELDS,
      filters: jobListFilter(options, options.now),
    },
    schema: z.object({ contents: z.array(jobCardSchema), totalCount: z.number() }),
  });
  return paged(answer.contents, answer.totalCount, page, size);
}

/** The first 100 items of a small endpoint (all there are), in the order asked for. */
async function listSmall<T>(
  endpoint: string,
  queries: Pick<ContentQueries, 'orders' | 'depth'>,
  schema: z.ZodType<T>,
): Promise<T[]> {
  const answer = await siteContent().getList({
    endpoint,
    queries: { limit: 100, ...queries },
    schema,
  });
  return answer.contents;
}

/** The ids and names of a small endpoint's items (no system fields: `get`, not `getList`). */
async function listNames(
  endpoint: string,
  queries: Pick<ContentQueries, 'orders'> = {},
): Promise<{ id: string; name: string }[]> {
  const answer = await siteContent().get({
    endpoint,
    queries: { limit: 100, fields: 'id,name', ...queries },
    schema: z.object({ contents: z.array(named) }),
  });
  return answer.contents;
}

/** The partner companies, by name in Japanese order (the /jobs company filter). */
export const listPartnerNames = cache(async (): Promise<{ id: string; name: string }[]> =>
  (await listNames('partners', { orders: '-publishedAt' })).toSorted((a, b) =>
    a.name.localeCompare(b.name, 'ja'),
  ),
);

export type Category = z.infer<typeof categorySchema>;

/** Every category (feature issue), newest issue first. */
export const listCategories = cache((): Promise<Category[]> =>
  listSmall('categories', { orders: '-issueNumber,-publishedAt', depth: 0 }, categorySchema),
);

export type SeriesItem = z.infer<typeof seriesSchema>;

export const listSeries = cache((): Promise<SeriesItem[]> =>
  listSmall('series', { orders: '-publishedAt', depth: 1 }, seriesSchema),
);

export const listTags = cache(() => listNames('tags'));

/**
 * A post's description as the standfirst of a lead story, read apart from its card's fields
 * (CARD_FIELDS): the page then depends on this one post's description, not every card's.
 */
export async function postStandfirst(id: string): Promise<string | undefined> {
  if (!CONTENT_ID.test(id)) return undefined;
  const answer = await siteContent().get({
    endpoint: 'posts',
    queries: { ids: [id], limit: 1, fields: 'id,description' },
    schema: z.object({
      contents: z.array(z.object({ id: z.string(), description: z.string().optional() })),
    }),
  });
  return answer.contents[0]?.description;
}

/**
 * The posts editors chose for the home page (the `home` object's featuredPosts), in their
 * order. Unpublished choices drop out; no `home` object means no choice.
 */
export async function listFeaturedPosts(): Promise<PostCard[]> {
  let ids: string[];
  try {
    // `get`, not `getObject`: with `fields` the answer has no system fields to check.
    const home = await siteContent().get({
      endpoint: 'home',
      queries: { fields: 'featuredPosts.id' },
      schema: z.object({ featuredPosts: z.array(z.object({ id: z.string() })).default([]) }),
    });
    ids = home.featuredPosts.map((p) => p.id);
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return [];
    throw error;
  }
  if (ids.length === 0) return [];
  const found = await listPosts({ ids, size: ids.length });
  const byId = new Map(found.items.map((p) => [p.id, p]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
