import type { Category } from '@/server/features/content/lists';

/** A feature issue (a category) as the site names it: "No.106", or nothing without a number. */
export function issueNumberLabel(issue: Pick<Category, 'issueNumber'>): string | null {
  return issue.issueNumber ? `No.${issue.issueNumber}` : null;
}

/** The issue's date: when it was published, else when it was made. */
export function issueDate(issue: Pick<Category, 'publishedAt' | 'createdAt'>): string {
  return issue.publishedAt ?? issue.createdAt;
}

/**
 * The issue the site leads with: the one editors marked as current, else the newest. The list
 * comes newest first (listCategories).
 */
export function currentIssue<T extends Pick<Category, 'isFeatured'>>(
  issues: readonly T[],
): T | undefined {
  return issues.find((issue) => issue.isFeatured) ?? issues[0];
}
