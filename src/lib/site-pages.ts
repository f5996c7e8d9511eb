/**
 * The site's information pages: one CMS object endpoint each, served at the path of the same
 * name (/about, /faq, /terms, /specified-commercial-transactions, /studio), except the partner
 * programme's, which lives in the biz area (/biz/about). Pure: the pages, the sitemap and the
 * seeder all read this one list.
 */
export const SITE_PAGE_ENDPOINTS = [
  'about',
  'faq',
  'terms',
  'specified-commercial-transactions',
  'studio',
  'biz-about',
] as const;
