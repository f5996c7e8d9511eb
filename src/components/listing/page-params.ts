/** `?page=` of a list: a positive integer, anything else is page 1 (never an error). */
export function pageParam(value: string | string[] | undefined): number {
  const n = typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : 1;
  return n >= 1 ? n : 1;
}

export function textParam(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= 100 ? value : undefined;
}

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The props of a page that reads its query (and no route parameters). */
export type SearchParamsProps = { searchParams: SearchParams };

/** The props of a page under one dynamic segment (`[contentId]`, `[id]`, …) that reads no query. */
export type RouteParamsProps<Segment extends string> = {
  params: Promise<Record<Segment, string>>;
};
