import { FULL_REMOTE, formatSalaryRange } from '@/lib/jobs';

/**
 * How a listing's conditions read in Japanese, the same on its card, its page and the home
 * page: plain functions of the content item's fields (src/server/features/content/schemas.ts jobSchema).
 */

export type JobConditions = {
  employmentType: string[];
  occupation?: string[];
  prefecture: string[];
  remote: string[];
  location?: string | null;
  salaryUnit: string[];
  salaryMin?: number | null;
  salaryMax?: number | null;
};

export const isFullRemote = (job: Pick<JobConditions, 'remote'>) =>
  job.remote.includes(FULL_REMOTE);

/** 「東京都」 or 「フルリモート」: where the work is, in one word (cards, filters). */
export function areaLabel(job: Pick<JobConditions, 'prefecture' | 'remote'>): string | null {
  if (isFullRemote(job)) return FULL_REMOTE;
  return job.prefecture[0] ?? null;
}

/**
 * 勤務地 in full: 「東京都 渋谷区神宮前 ／ 一部リモート」; a フルリモート listing says so first
 * and keeps its note (where meetings are held, say). A slash, not brackets: the detail often
 * ends in brackets of its own.
 */
export function placeLabel(
  job: Pick<JobConditions, 'prefecture' | 'remote' | 'location'>,
): string | null {
  const detail = job.location?.trim() ?? '';
  if (isFullRemote(job)) return detail ? `${FULL_REMOTE} ／ ${detail}` : FULL_REMOTE;
  const prefecture = job.prefecture[0] ?? '';
  // The detail often starts with the prefecture already (「東京都渋谷区…」): not twice.
  const place = detail.startsWith(prefecture) ? detail : `${prefecture} ${detail}`.trim();
  if (!place) return null;
  const remote = job.remote[0];
  return remote && remote !== '出社' ? `${place} ／ ${remote}` : place;
}

/** 「年収 420万〜650万円」, or null when no amount is given. */
export function salaryLabel(
  job: Pick<JobConditions, 'salaryUnit' | 'salaryMin' | 'salaryMax'>,
): string | null {
  return formatSalaryRange(job.salaryUnit[0], job.salaryMin, job.salaryMax);
}
