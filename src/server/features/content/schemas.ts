import 'server-only';
import { z } from '@/lib/zod';

/** Typed content of the site: the API answers are parsed with these (docs/content-model.md). */

export const imageSchema = z.object({
  url: z.string(),
  width: z.number().optional(),
  height: z.number().optional(),
  alt: z.string().optional(),
});
export type Image = z.infer<typeof imageSchema>;

export const fileSchema = z.object({ url: z.string(), fileSize: z.number().optional() });

const ref = z.object({ id: z.string() });
/** The dates the content service gives every item (an object endpoint's has no id). */
const dates = {
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().optional(),
  revisedAt: z.string().optional(),
};
/** The system fields of a list endpoint's item, for schemas of the fields a page reads. */
export const itemMeta = { id: z.string(), ...dates };
/**
 * The `seo` custom field (src/lib/cms/model.ts SEO_FIELD): what the page says to search engines
 * and share cards; null when the editor left it empty.
 */
export const seoSchema = z
  .object({
    metaTitle: z.string().optional(),
    metaDescription: z.string().optional(),
    shareImage: imageSchema.optional(),
    noIndex: z.boolean().optional(),
  })
  .nullish();

/** The fields a list item shows of a piece of content (a card): title, description and cover. */
const teaserFields = {
  title: z.string(),
  description: z.string().optional(),
  coverImage: imageSchema.optional(),
  seo: seoSchema,
};

export const writerSchema = z.object({
  ...itemMeta,
  name: z.string(),
  nameKana: z.string().optional(),
  role: z.string().optional(),
  profile: z.string().optional(),
  avatar: imageSchema.optional(),
  website: z.string().optional(),
});
export type Writer = z.infer<typeof writerSchema>;

export const categorySchema = z.object({
  ...itemMeta,
  name: z.string(),
  description: z.string().optional(),
  coverImage: imageSchema.optional(),
  issueNumber: z.number().optional(),
  isFeatured: z.boolean(),
  seo: seoSchema,
});
export type Category = z.infer<typeof categorySchema>;

export const seriesSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  writers: z.array(z.union([writerSchema, ref])),
});

export const tagSchema = z.object({ ...itemMeta, name: z.string() });

/** A post as read with depth 1: references expanded one level. */
export const postSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  body: z.string().optional(),
  isPublicPreview: z.boolean(),
  /** Yen, tax included: the post is sold singly (docs/decisions/053-one-time-payments.md); absent or null: not. */
  price: z.number().nullish(),
  format: z.array(z.string()),
  category: categorySchema.nullable(),
  series: seriesSchema.nullable(),
  seriesOrder: z.number().optional(),
  tags: z.array(tagSchema),
  writers: z.array(writerSchema),
  relatedPosts: z.array(z.object({ id: z.string(), title: z.string().optional() }).loose()),
});
export type Post = z.infer<typeof postSchema>;

export const partnerSchema = z.object({
  ...itemMeta,
  name: z.string(),
  description: z.string().optional(),
  logo: imageSchema.optional(),
  website: z.string().optional(),
});

/**
 * A job listing (docs/decisions/010-partners-and-job-listings.md). The selects are arrays of one
 * value (microCMS); their vocabularies are in src/lib/jobs.ts. Values outside them are kept as text
 * rather than failing the page: an editor may still have an old value stored. closingDate is an
 * instant: the end of the closing day in Japan (isClosed in src/lib/jobs.ts decides by the Japanese
 * day).
 */
export const jobSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  partner: partnerSchema.nullable(),
  body: z.string().optional(),
  employmentType: z.array(z.string()).default([]),
  occupation: z.array(z.string()).default([]),
  prefecture: z.array(z.string()).default([]),
  remote: z.array(z.string()).default([]),
  /** 勤務地 (詳細): the address or a note, beside the prefecture. */
  location: z.string().nullish(),
  salaryUnit: z.array(z.string()).default([]),
  /** Yen. */
  salaryMin: z.number().nullish(),
  salaryMax: z.number().nullish(),
  hours: z.string().nullish(),
  /** http(s) only (the content model refuses other schemes). */
  applyUrl: z.string().nullish(),
  applyEmail: z.string().nullish(),
  closingDate: z.string().nullish(),
});
export type Job = z.infer<typeof jobSchema>;

export const audioSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  audioFile: fileSchema.optional(),
  /** Seconds. */
  duration: z.number().optional(),
  transcript: z.string().optional(),
  isPublicPreview: z.boolean(),
  writers: z.array(writerSchema),
});
export type Audio = z.infer<typeof audioSchema>;

export const movieSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  videoFile: fileSchema.optional(),
  /** A YouTube or Vimeo embed URL. */
  embedUrl: z.string().optional(),
  duration: z.number().optional(),
  isPublicPreview: z.boolean(),
  writers: z.array(writerSchema),
});
export type Movie = z.infer<typeof movieSchema>;

export const connectSchema = z.object({
  ...itemMeta,
  ...teaserFields,
  body: z.string().optional(),
});
export type ConnectPage = z.infer<typeof connectSchema>;

/** The object endpoints of the site's pages: about, faq, terms, specified-commercial-transactions, studio. */
export const sitePageSchema = z.object({
  ...dates,
  title: z.string(),
  description: z.string().optional(),
  body: z.string().optional(),
  seo: seoSchema,
});
export type SitePage = z.infer<typeof sitePageSchema>;

export type Series = z.infer<typeof seriesSchema>;
export type Tag = z.infer<typeof tagSchema>;
export type Partner = z.infer<typeof partnerSchema>;

/** A content id as the service accepts it: anything else cannot exist, so it is a 404. */
export const CONTENT_ID = /^[A-Za-z0-9_-]{1,50}$/;
