/**
 * The console feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { actorLabels } from './actors';
export { MAX_BULK_ITEMS } from './bulk';
export { consoleTarget } from './console-http';
export { loadVersionHistory } from './history';
export {
  CONSOLE_PAGE_SIZE,
  countByEndpoint,
  findItem,
  itemState,
  listConsoleItems,
  loadEditorItem,
  lookupItems,
  titleFieldOf,
} from './items';
export { parseContentListQuery } from './list-query';
export { editorsByItem } from './presence';
export { publishDueItems, startScheduler, stopScheduler } from './scheduler';
export { publicPath } from './site-urls';
export { countInReview, findSubmission, ownershipOf } from './submissions';
