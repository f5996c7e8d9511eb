/**
 * The comments feature's one entry: what the rest of src/server and the pages use of it
 * (docs/decisions/045-server-tiers.md, docs/decisions/061-comments.md).
 */
export {
  COMMENTS_ADMIN_PAGE,
  handleCommentAction,
  handleCommentCreate,
  handleCommentsGet,
  moderationHandler,
  settingsHandler,
  type CommentsHttpDeps,
} from './comments-http';
export {
  COMMENTS_FIELD,
  freeMembersWrite,
  itemsOfWriter,
  listItemComments,
  moderationLists,
  purgeItems,
  type ShownComment,
  type StaffComment,
} from './store';
export { sendCommentDigests, startCommentDigests, stopCommentDigests } from './digest';
