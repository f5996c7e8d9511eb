/**
 * The final confirmation screen for a plan, carrying the page the reader came from (an already
 * safe local path; '/' is left out) so that the path to a plan ends back on that page, and the
 * offer's code when the reader came with one.
 */
export function confirmPath(planKey: string, next = '/', offer?: string | null): string {
  const base = `/service-plans/confirm?plan=${planKey}`;
  const withNext = next === '/' ? base : `${base}&next=${encodeURIComponent(next)}`;
  return offer ? `${withNext}&offer=${encodeURIComponent(offer)}` : withNext;
}

/** The plans page carrying `next` and an offer's code. */
export function plansPath(next = '/', offer?: string | null): string {
  const query = new URLSearchParams();
  if (next !== '/') query.set('next', next);
  if (offer) query.set('offer', offer);
  const text = query.toString();
  return text ? `/service-plans?${text}` : '/service-plans';
}
