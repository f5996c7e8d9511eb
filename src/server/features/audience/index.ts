/**
 * The audience feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { audienceChangedSince, noteAudienceChange } from './audience-changes';
export {
  audienceCookie,
  audienceOf,
  isFreeMember,
  readAudienceCookie,
  rendersAlone,
  servedAs,
  sessionAudienceOf,
  type Audience,
  type SessionAudience,
} from './audience';
export {
  noteAudience,
  noteContentReads,
  noteMeter,
  notePersonal,
  openRenderRecord,
  rendersForOneReader,
  type RenderRecord,
} from './render-record';
