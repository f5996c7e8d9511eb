import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { SubmissionState } from '@/lib/access/console-permissions';

/**
 * A contributor's submission's state as its item has it (docs/decisions/031-contributor-role.md):
 * published once the item has ever been published (unpublishing keeps its first
 * `published_at`), whatever published it (approval, the editor's 公開する, bulk actions, the
 * scheduler, the content API); its review's state until then. Every reader of the state (the
 * allow-list's ownership, review, the console's lists) reads it through this, never the stored
 * column alone, which only the console's own steps set.
 */
export const submissionState = (publishedAt: SQL, state: SQL): SQL<SubmissionState> =>
  sql<SubmissionState>`(CASE WHEN ${publishedAt} IS NOT NULL THEN 'published' ELSE ${state} END)`;
