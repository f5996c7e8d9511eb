import 'server-only';

/**
 * Crawlers, link previewers, monitors and scripted clients. Browsers always send a User-Agent,
 * so a missing one counts as a bot. Playwright's device profiles send a normal Chrome string.
 */
const BOT_USER_AGENT =
  /(?<!cu)bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|quora link preview|whatsapp|bingpreview|skypeuripreview|headlesschrome|phantomjs|lighthouse|pagespeed|gtmetrix|pingdom|uptime|monitor|curl\/|wget\/|python-requests|python-urllib|aiohttp|httpclient|okhttp|axios\/|node-fetch|undici|go-http-client|java\/|libwww|scrapy/i;

export function isBotUserAgent(userAgent: string | null | undefined): boolean {
  if (!userAgent?.trim()) return true;
  return BOT_USER_AGENT.test(userAgent);
}
