/**
 * The content feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export {
  CONTENT_GET_ALL_PAGE_SIZE,
  CONTENT_PAGE_PAUSE_MS,
  CONTENT_PAGE_SIZE,
  getFreePlanPostIds,
  isContentRequestError,
  serializeContentQueries,
  type ContentClient,
  type ContentQueries,
} from './client';
export { contentWriter } from './content-writer';
export { findItem } from './items';
export {
  audioSchema,
  categorySchema,
  connectSchema,
  CONTENT_ID,
  imageSchema,
  jobSchema,
  movieSchema,
  partnerSchema,
  postSchema,
  seriesSchema,
  writerSchema,
  type Audio,
  type Category,
  type ConnectPage,
  type Job,
  type Movie,
  type Post,
  type Series,
  type Writer,
} from './schemas';
export { siteContent, usesBuiltInContent } from './site-content';
export { sitePagePath, type SitePageEndpoint } from './site-pages';
