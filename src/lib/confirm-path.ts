/**
 * The final confirmation screen for a plan, carrying the page the reader came from (an already
 * safe local path; '/' is left out) so that the path to a plan ends back on that page.
 */
export function confirmPath(planKey: string, next = '/'): string {
  const base = `/service-plans/confirm?plan=${planKey}`;
  return next === '/' ? base : `${base}&next=${encodeURIComponent(next)}`;
}
