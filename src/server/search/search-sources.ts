import 'server-only';
import { openListingsFilter } from '@/lib/jobs';
import { z } from '@/lib/zod';
import { type Viewer, audioFor, postFor } from '@/server/access/post-access';
import type { SearchScope } from '@/server/cms/search-index';
import {
  audioSchema,
  categorySchema,
  jobSchema,
  movieSchema,
  postSchema,
} from '@/server/content/schemas';
import type { SearchType } from './search-request';
import { mediaSearchScope, postsSearchScope } from './search-scope';
import { htmlToText } from './tokenize';

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
  membersOnly: boolean;
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

const postFields = postSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  body: true,
  isPublicPreview: true,
});

const postSource: Source<z.infer<typeof postFields>> = {
  endpoint: 'posts',
  fields: 'id,createdAt,publishedAt,title,description,body,isPublicPreview,coverImage',
  schema: postFields,
  toDoc(post, reader) {
    // Quote only what this viewer may read: the whole body, or its lead.
    const { item } = postFor(reader.viewer, post, reader.freePlanPostIds);
    return {
      type: 'posts',
      id: item.id,
      href: `/posts/${item.id}`,
      title: item.title,
      date: dateOf(item),
      text: joinText(item.description, plainText(item.body)),
      membersOnly: !post.isPublicPreview,
      cover: coverOf(post),
    };
  },
};
const audioFields = audioSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  transcript: true,
  isPublicPreview: true,
});
const audioSource: Source<z.infer<typeof audioFields>> = {
  endpoint: 'audios',
  fields: 'id,createdAt,publishedAt,title,description,transcript,isPublicPreview,coverImage',
  schema: audioFields,
  toDoc(audio, reader) {
    const { item } = audioFor(reader.viewer, audio);
    return {
      type: 'audios',
      id: item.id,
      href: `/audios/${item.id}`,
      title: item.title,
      date: dateOf(item),
      text: joinText(item.description, plainText(item.transcript)),
      membersOnly: !audio.isPublicPreview,
      cover: coverOf(audio),
    };
  },
};

const movieFields = movieSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  isPublicPreview: true,
});
const movieSource: Source<z.infer<typeof movieFields>> = {
  endpoint: 'movies',
  fields: 'id,createdAt,publishedAt,title,description,isPublicPreview,coverImage',
  schema: movieFields,
  toDoc: (movie) => ({
    type: 'movies',
    id: movie.id,
    href: `/movies/${movie.id}`,
    title: movie.title,
    date: dateOf(movie),
    text: joinText(movie.description),
    membersOnly: !movie.isPublicPreview,
    cover: coverOf(movie),
  }),
};

const jobFields = jobSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  body: true,
  location: true,
  hours: true,
});
const jobSource: Source<z.infer<typeof jobFields>> = {
  endpoint: 'jobs',
  fields: 'id,createdAt,publishedAt,title,description,body,location,hours,coverImage',
  schema: jobFields,
  // A listing past its closing day is not found: it has left /jobs and the sitemap too.
  filters: (now) => openListingsFilter(now),
  // Job listings are public: all of their text may be quoted.
  toDoc: (job) => ({
    type: 'jobs',
    id: job.id,
    href: `/jobs/${job.id}`,
    title: job.title,
    date: dateOf(job),
    text: joinText(
      job.description,
      plainText(job.body),
      job.location ?? undefined,
      job.hours ?? undefined,
    ),
    membersOnly: false,
    cover: coverOf(job),
  }),
};

const featureFields = categorySchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  name: true,
  description: true,
  issueNumber: true,
});
const featureSource: Source<z.infer<typeof featureFields>> = {
  endpoint: 'categories',
  fields: 'id,createdAt,publishedAt,name,description,issueNumber,coverImage',
  schema: featureFields,
  // A feature issue's page is public: its name and description may be quoted.
  toDoc: (feature) => ({
    type: 'feature',
    id: feature.id,
    href: `/feature/${feature.id}`,
    title: feature.issueNumber ? `特集 No.${feature.issueNumber}「${feature.name}」` : feature.name,
    date: dateOf(feature),
    text: joinText(feature.description),
    membersOnly: false,
    cover: coverOf(feature),
  }),
};

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
