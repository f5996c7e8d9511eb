/**
 * The attribution feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export {
  asksNotToTrack,
  checkoutSourceOf,
  pathStartCookie,
  pathStartOf,
  recordSignUpSource,
  sourceMetadata,
  sourceOfMetadata,
} from './attribution';
export {
  contentForPath,
  isContentEndpoint,
  pathForContent,
  type ContentEndpoint,
  type ContentRef,
} from './content-path';
