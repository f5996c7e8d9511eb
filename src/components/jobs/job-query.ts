import { EMPLOYMENT_TYPES, FULL_REMOTE, OCCUPATIONS, PREFECTURES } from '@/lib/jobs';
import { z } from '@/lib/zod';
import { pageParam } from '@/components/listing/page-params';
import { CONTENT_ID } from '@/server/features/content/schemas';

/**
 * The /jobs query: ?type=&occupation=&location=&partner=&page=. Every value is checked against
 * its vocabulary; one that is not in it is ignored (the list without that filter), never an
 * error. Only the parsed values reach the content service's filter.
 */

export type JobQuery = {
  type?: (typeof EMPLOYMENT_TYPES)[number];
  occupation?: (typeof OCCUPATIONS)[number];
  /** A prefecture, or 'remote' for フルリモート. */
  location?: (typeof PREFECTURES)[number] | 'remote';
  partner?: string;
  page: number;
};

/** The location filter's own option for フルリモート listings. */
export const REMOTE_LOCATION = 'remote';
export const REMOTE_LOCATION_LABEL = FULL_REMOTE;

const first = (value: unknown) => (Array.isArray(value) ? (value as unknown[])[0] : value);
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(first, schema.optional()).catch(undefined);

const jobQuerySchema = z.object({
  type: optional(z.enum(EMPLOYMENT_TYPES)),
  occupation: optional(z.enum(OCCUPATIONS)),
  location: optional(z.union([z.enum(PREFECTURES), z.literal(REMOTE_LOCATION)])),
  partner: optional(z.string().regex(CONTENT_ID)),
});

export function parseJobQuery(query: Record<string, string | string[] | undefined>): JobQuery {
  const parsed = jobQuerySchema.safeParse(query);
  const filters = parsed.success ? parsed.data : {};
  return {
    ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
    page: pageParam(query.page),
  };
}

export const isFiltered = (query: JobQuery) =>
  !!(query.type || query.occupation || query.location || query.partner);

/** The filters as query parameters, in a fixed order (undefined: not set). */
export function jobQueryParams(query: Omit<JobQuery, 'page'>): Record<string, string | undefined> {
  return {
    type: query.type,
    occupation: query.occupation,
    location: query.location,
    partner: query.partner,
  };
}

export function jobsHref(query: Omit<JobQuery, 'page'> & { page?: number }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(jobQueryParams(query)))
    if (value) params.set(key, value);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/jobs?${text}` : '/jobs';
}
