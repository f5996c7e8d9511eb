import 'server-only';
import { type AccessLevel, accessLevelOf } from '@/lib/access/access-label';
import { openListingsFilter } from '@/lib/jobs';
import { z } from '@/lib/zod';
import { type Viewer, audioFor, postFor } from '@/lib/access/post-access';
import type { SearchScope } from '@/server/services/cms/search-index';
import {
  audioSchema,
  categorySchema,
  jobSchema,
  movieSchema,
  postSchema,
} from '@/server/features/content';
import type { SearchType } from './search-request';
import { mediaSearchScope, postsSearchScope } from './search-scope';
import { htmlToText } from '@/server/services/cms/search/tokenize';

/**
 * What the site search reads of each type (posts, feature issues, audio, movies, jobs): the
 * fields it asks for, the filter that keeps an item out, and the document a found item becomes,
 * holding only the text this viewer may read (a snippet quotes nothing else). Which text a
 * query may match per viewer comes from the access policy (search-scope.ts).
 */

export type Cover = { url: string; alt?: string };

export type Doc = {
  type: SearchType;
  id: string;
  href: string;
  title: string;
  date: string;
  /** Everything a snippet may quote: only what anyone may read of the item. */
  text: string;
  /** Who may read it (src/lib/access/access-label.ts); null for public pages (jobs, features). */
  access: AccessLevel | null;
  cover: Cover | null;
};

/** Who is searching, as the policy needs it. */
export type Reader = { viewer: Viewer; freePlanPostIds: readonly string[] };

type Source<T> = {
  endpoint: string;
  fields: string;
  schema: z.ZodType<T>;
  /** Only these items of the endpoint are searched (a content service filter), at `now`. */
  filters?: (now: Date) => string;
  toDoc: (item: T, reader: Reader) => Doc;
};
export const dateOf = (item: { publishedAt?: string; createdAt: string }) =>
  item.publishedAt ?? item.createdAt;
const joinText = (...parts: (string | undefined)[]) =>
  parts.filter((part): part is string => !!part && part.trim() !== '').join(' ');

const coverOf = (item: { coverImage?: { url: string; alt?: string } }): Cover | null =>
  item.coverImage ? { url: item.coverImage.url, alt: item.coverImage.alt } : null;

/** Rich text as quotable plain text. */
const plainText = (html: string | undefined) => (html ? htmlToText(html) : '');

/**
 * The fields every type is asked for, in the order the content service gets them; each type
 * adds its own before the cover, which comes last.
 */
const COMMON_FIELDS = { id: true, createdAt: true, publishedAt: true } as const;
const COVER_FIELD = { coverImage: true } as const;

type DocItem = {
  id: string;
  createdAt: string;
  publishedAt?: string;
  coverImage?: { url: string; alt?: string };
};

/** What a found item's Doc takes the same way for every type: its address, date and cover. */
const docOf = (
  type: SearchType,
  item: DocItem,
  parts: Pick<Doc, 'title' | 'text' | 'access'>,
): Doc => ({
  type,
  id: item.id,
  href: `/${type}/${item.id}`,
  date: dateOf(item),
  ...parts,
  cover: coverOf(item),
});

/** A source whose `fields` are the keys its schema picks (so the two cannot drift apart). */
function sourceOf<T>(
  endpoint: string,
  schema: z.ZodObject & z.ZodType<T>,
  rest: Pick<Source<T>, 'toDoc' | 'filters'>,
): Source<T> {
  return { endpoint, fields: Object.keys(schema.shape).join(','), schema, ...rest };
}

const postFields = postSchema.pick({
  ...COMMON_FIELDS,
  title: true,
  description: true,
  body: true,
  isPublicPreview: true,
  ...COVER_FIELD,
});
const postSource = sourceOf('posts', postFields, {
  toDoc(post, reader) {
    // Quote only what this viewer may read: the whole body, or its lead.
    const { item } = postFor(reader.viewer, post, reader.freePlanPostIds);
    return docOf('posts', post, {
      title: item.title,
      text: joinText(item.description, plainText(item.body)),
      access: accessLevelOf({
        type: 'posts',
        isPublicPreview: post.isPublicPreview,
        inFreePlan: reader.freePlanPostIds.includes(post.id),
      }),
    });
  },
});

const audioFields = audioSchema.pick({
  ...COMMON_FIELDS,
  title: true,
  description: true,
  transcript: true,
  isPublicPreview: true,
  ...COVER_FIELD,
});
const audioSource = sourceOf('audios', audioFields, {
  toDoc(audio, reader) {
    const { item } = audioFor(reader.viewer, audio);
    return docOf('audios', audio, {
      title: item.title,
      text: joinText(item.description, plainText(item.transcript)),
      access: accessLevelOf({ type: 'audios', isPublicPreview: audio.isPublicPreview }),
    });
  },
});

const movieFields = movieSchema.pick({
  ...COMMON_FIELDS,
  title: true,
  description: true,
  isPublicPreview: true,
  ...COVER_FIELD,
});
const movieSource = sourceOf('movies', movieFields, {
  toDoc: (movie) =>
    docOf('movies', movie, {
      title: movie.title,
      text: joinText(movie.description),
      access: accessLevelOf({ type: 'movies', isPublicPreview: movie.isPublicPreview }),
    }),
});

const jobFields = jobSchema.pick({
  ...COMMON_FIELDS,
  title: true,
  description: true,
  body: true,
  location: true,
  hours: true,
  ...COVER_FIELD,
});
const jobSource = sourceOf('jobs', jobFields, {
  // A listing past its closing day is not found: it has left /jobs and the sitemap too.
  filters: (now) => openListingsFilter(now),
  // Job listings are public: all of their text may be quoted.
  toDoc: (job) =>
    docOf('jobs', job, {
      title: job.title,
      text: joinText(
        job.description,
        plainText(job.body),
        job.location ?? undefined,
        job.hours ?? undefined,
      ),
      access: null,
    }),
});

const featureFields = categorySchema.pick({
  ...COMMON_FIELDS,
  name: true,
  description: true,
  issueNumber: true,
  ...COVER_FIELD,
});
const featureSource = sourceOf('categories', featureFields, {
  // A feature issue's page is public: its name and description may be quoted.
  toDoc: (feature) =>
    docOf('feature', feature, {
      title: feature.issueNumber
        ? `特集 No.${feature.issueNumber}「${feature.name}」`
        : feature.name,
      text: joinText(feature.description),
      access: null,
    }),
});

type AnySource = {
  endpoint: string;
  fields: string;
  filters?: (now: Date) => string;
  read: (contents: unknown, reader: Reader) => Doc[];
};

function reader<T>(source: Source<T>): AnySource {
  const schema = z.array(source.schema);
  return {
    endpoint: source.endpoint,
    fields: source.fields,
    ...(source.filters ? { filters: source.filters } : {}),
    read: (contents, who) => schema.parse(contents).map((item) => source.toDoc(item, who)),
  };
}

export const SOURCES: Readonly<Record<SearchType, AnySource>> = {
  posts: reader(postSource),
  feature: reader(featureSource),
  audios: reader(audioSource),
  movies: reader(movieSource),
  jobs: reader(jobSource),
};

/** Which text each type is matched on for a viewer (search-scope.ts asks the policy). */
export function searchScopes(
  viewer: Viewer,
  freePlanPostIds: readonly string[],
): Record<SearchType, SearchScope> {
  const media = mediaSearchScope(viewer);
  return {
    posts: postsSearchScope(viewer, freePlanPostIds),
    audios: media,
    movies: media,
    // Feature issues and job listings are public: no part of them is closed.
    feature: { kind: 'full' },
    jobs: { kind: 'full' },
  };
}
