import 'server-only';
import { singleton } from '@/lib/singleton';
import { escapeHtml } from '@/lib/text/escape-html';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { findItem, getFreePlanPostIds, postSchema, siteContent } from '@/server/features/content';
import { mailFrom } from '@/server/platform/mail/mailer';
import {
  type ClaimedLetter,
  type LetterComposer,
  type LetterTransport,
  type SenderHandle,
  newSenderId,
  runSender,
} from './delivery';
import { type Letter, type LetterPost, renderNewsletterLetter } from './letter';
import { LETTER_ID_HEADER } from './mail-report';
import { letterPostUrl } from './letter-param';
import { trackLetterHtml } from './tracking';
import { outboxLetterTransport, smtpLetterTransport } from './letter-transport';
import { NEWSLETTER_ENDPOINT } from '@/lib/newsletter/console';
import { unsubscribeUrl } from '@/server/features/profiles';

/**
 * The sender every server instance runs from boot (src/server/boot.ts) until shutdown: the
 * engine of delivery.ts with the site's letter (letter.ts), its unsubscribe link
 * (subscription.ts), the open parameter (letter-param.ts) and the mail transport.
 */

/**
 * How long a post read for a send is reused, with the free-plan list read with it (a round takes
 * seconds; edits and newer posts show up soon).
 */
const POST_TTL_MS = 60_000;

/** The post as readers see it on the site (published version, writers expanded). */
export async function loadLetterPost(contentId: string): Promise<LetterPost | null> {
  return findItem(NEWSLETTER_ENDPOINT, postSchema, contentId);
}

/** The site's free-plan list now, as the post page reads it (src/server/features/access/read.ts). */
export function loadFreePlanPostIds(): Promise<readonly string[]> {
  return getFreePlanPostIds(siteContent());
}

/** A post as a send mails it, and the free-plan list read with it. */
type LetterSource = { post: LetterPost; freePlanPostIds: readonly string[] };

/**
 * Headers of one letter: RFC 2369 List-Unsubscribe with the https link and RFC 8058 one-click
 * (mail clients show an unsubscribe button and POST to that link), and the letter's id, which
 * bounces and complaints that come back by mail carry in their copy of the letter (bounces.ts).
 * The id is no secret beyond the letter: it is in the letter's links already (`?nl=`).
 */
export function letterHeaders(unsubscribe: string, letterId: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribe}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    [LETTER_ID_HEADER]: letterId,
  };
}

/** Stand-ins rendered once per post and version; letters then only substitute them. */
const SLOTS = {
  name: 'NLQSLOTNAME',
  email: 'nlqslotemail@slot.invalid',
  unsubscribeUrl: 'https://slot.invalid/nlqslotunsubscribe',
  postUrl: 'https://slot.invalid/nlqslotpost',
} as const;
type SlotValues = Record<keyof typeof SLOTS, string>;

function fill(letter: Letter, values: SlotValues): Letter {
  const put = (text: string, escape: (value: string) => string) =>
    (Object.keys(SLOTS) as (keyof typeof SLOTS)[]).reduce(
      (out, key) => out.split(SLOTS[key]).join(escape(values[key])),
      text,
    );
  return {
    subject: put(letter.subject, (v) => v),
    html: put(letter.html, escapeHtml),
    text: put(letter.text, (v) => v),
  };
}

const sameLetter = (a: Letter, b: Letter) =>
  a.subject === b.subject && a.html === b.html && a.text === b.text;

/**
 * Renders letters. The post's part of a letter is the same for every reader of an audience, and
 * rendering it (the access policy's cut, the body's HTML walk) is most of a letter's cost, so it
 * is rendered once per post and audience with stand-ins for the reader's parts, which each
 * letter then fills in. The first letter of each is also rendered whole and compared: if the
 * two differ (the letter's layout treats a value in a way the stand-in does not show), that
 * post and audience are rendered whole for every reader.
 */
export function createLetterComposer(
  options: {
    loadPost?: (contentId: string) => Promise<LetterPost | null>;
    loadFreePlan?: () => Promise<readonly string[]>;
    siteUrl?: string;
    now?: () => number;
  } = {},
): LetterComposer {
  const loadPost = options.loadPost ?? loadLetterPost;
  const loadFreePlan = options.loadFreePlan ?? loadFreePlanPostIds;
  const sources = new Map<string, { at: number; source: Promise<LetterSource | null> }>();
  const templates = new Map<string, { source: LetterSource; letter: Letter | null }>();
  const now = options.now ?? Date.now;
  const load = async (contentId: string): Promise<LetterSource | null> => {
    const [post, freePlanPostIds] = await Promise.all([loadPost(contentId), loadFreePlan()]);
    return post && { post, freePlanPostIds };
  };
  const sourceOf = (contentId: string) => {
    const cached = sources.get(contentId);
    if (cached && now() - cached.at < POST_TTL_MS) return cached.source;
    const source = load(contentId);
    sources.set(contentId, { at: now(), source });
    // A failed read is not kept: the next letter tries again.
    source.catch(() => sources.delete(contentId));
    return source;
  };
  return async (letter: ClaimedLetter) => {
    const source = await sourceOf(letter.contentId);
    if (!source) return null;
    const { post, freePlanPostIds } = source;
    const siteUrl = options.siteUrl ?? env().SITE_URL;
    const unsubscribe = unsubscribeUrl(letter.userId);
    const values: SlotValues = {
      name: letter.name,
      email: letter.email,
      unsubscribeUrl: unsubscribe,
      // A reader who turned tracking off gets plain links: nothing in them names the letter.
      postUrl: letter.tracked
        ? letterPostUrl(siteUrl, letter.contentId, letter.id)
        : new URL(`/posts/${encodeURIComponent(letter.contentId)}`, siteUrl).toString(),
    };
    const render = (v: SlotValues) =>
      renderNewsletterLetter({
        item: post,
        audience: letter.audience,
        recipient: { name: v.name, email: v.email },
        unsubscribeUrl: v.unsubscribeUrl,
        postUrl: v.postUrl,
        freePlanPostIds,
        tracked: letter.tracked,
      });
    const key = `${letter.contentId}\n${letter.audience}\n${letter.tracked}`;
    let template = templates.get(key);
    let rendered: Letter;
    if (!letter.name) {
      rendered = render(values); // no name: the letter greets 読者 instead
    } else if (!template || template.source !== source) {
      const slotted = render(SLOTS);
      rendered = render(values);
      const usable = sameLetter(fill(slotted, values), rendered);
      templates.set(key, (template = { source, letter: usable ? slotted : null }));
    } else {
      rendered = template.letter ? fill(template.letter, values) : render(values);
    }
    const tracked = letter.tracked ? trackLetterHtml(rendered.html, siteUrl, letter.id) : null;
    return {
      letterId: letter.id,
      to: letter.email,
      ...rendered,
      subject: letter.subject ?? rendered.subject,
      ...(tracked && { html: tracked.html, links: tracked.links }),
      headers: letterHeaders(unsubscribe, letter.id),
    };
  };
}

/** SMTP_URL's pooled transport, or the outbox when it is unset. */
export function siteLetterTransport(db: Db): LetterTransport {
  const { SMTP_URL, NEWSLETTER_BOUNCE_ADDRESS } = env();
  return SMTP_URL
    ? smtpLetterTransport(SMTP_URL, { from: mailFrom(), bounceAddress: NEWSLETTER_BOUNCE_ADDRESS })
    : outboxLetterTransport(db);
}

const running = singleton('newsletter-sender', () => ({ handle: null as SenderHandle | null }));

export function startNewsletterSender(db: Db): void {
  if (running.handle) return;
  running.handle = runSender(db, {
    senderId: newSenderId(),
    compose: createLetterComposer(),
    transport: siteLetterTransport(db),
    ratePerSecond: env().NEWSLETTER_RATE_PER_SECOND,
  });
}

/** Lets the letter in flight finish, gives unstarted claims back, closes the transport. */
export async function stopNewsletterSender(): Promise<void> {
  const handle = running.handle;
  running.handle = null;
  await handle?.stop();
}

/** Work was queued in this process: look now rather than at the next idle tick. */
export function wakeNewsletterSender(): void {
  running.handle?.wake();
}
