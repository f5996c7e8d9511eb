import 'server-only';
import libmime from 'libmime';
import { type Attachment, type ParsedMail, simpleParser } from 'mailparser';
import { z } from '@/lib/zod';
import { OperatorError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';

/**
 * Reads one mail that came back to the site: a delivery status notification (RFC 3464,
 * `multipart/report; report-type=delivery-status`) or an abuse report of a mailbox provider's
 * feedback loop (ARF, RFC 5965, `report-type=feedback-report`). mailparser splits the MIME
 * structure and libmime reads the report's fields (header syntax, folded lines); what is kept is
 * a small report, validated by `mailReportSchema`, which the admin command applies
 * (bounces.ts). Anything else is a report of kind `other`. The letter a report is about is
 * named by the letter's id where the mail carries it: the envelope sender of the letter
 * (`bounces+<id>@…`, NEWSLETTER_BOUNCE_ADDRESS) to which the report was addressed, or the
 * letter's own `X-Newsletter-Letter-Id` header in the returned copy.
 */

/** The largest mail read: a report with a whole returned letter is far smaller. */
export const MAX_MAIL_BYTES = 2 * 1024 * 1024;
/** Recipients kept per report: a letter has one; the rest would only be noise. */
const MAX_RECIPIENTS = 5;
const MAX_LETTER_IDS = 10;
/** A returned message's header block is read up to this size (its body never). */
const MAX_ORIGINAL_HEADERS = 64 * 1024;

/** The letter's own header naming it (sender.ts sets it on every letter). */
export const LETTER_ID_HEADER = 'X-Newsletter-Letter-Id';

export class MailReportError extends OperatorError {
  override name = 'MailReportError';
}

const address = z
  .string()
  .max(254)
  .regex(/^[^\s@<>]+@[^\s@<>]+$/);
const letterIds = z.array(z.uuid()).max(MAX_LETTER_IDS);

const dsnRecipientSchema = z
  .object({
    /** The address the receiving system reported on (after its aliases). */
    finalRecipient: address.nullable(),
    /** The address as we gave it, when the reporting system kept it. */
    originalRecipient: address.nullable(),
    /** failed | delayed | delivered | relayed | expanded (RFC 3464 §2.3.3), lower-cased. */
    action: z.string().max(40),
    /** The enhanced status code (RFC 3463), e.g. 5.1.1; null when missing or unreadable. */
    status: z
      .string()
      .regex(/^[245]\.\d{1,3}\.\d{1,3}$/)
      .nullable(),
    diagnostic: z.string().max(200),
  })
  .strict();

export const mailReportSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('delivery-status'),
      letterIds,
      recipients: z.array(dsnRecipientSchema).max(MAX_RECIPIENTS),
    })
    .strict(),
  z
    .object({
      kind: z.literal('feedback'),
      letterIds,
      /** abuse | fraud | not-spam | virus | auth-failure | other (RFC 5965 §7.3), lower-cased. */
      feedbackType: z.string().max(40),
      /** Who the reported mail went to, as far as the report says (often redacted). */
      recipients: z.array(address).max(MAX_RECIPIENTS),
      /** Who sent the report (its User-Agent or reporting MTA), for the note. */
      source: z.string().max(100),
    })
    .strict(),
  z.object({ kind: z.literal('other'), contentType: z.string().max(200) }).strict(),
]);

export type MailReport = z.infer<typeof mailReportSchema>;
export type DsnRecipient = z.infer<typeof dsnRecipientSchema>;

const PARSER_OPTIONS = {
  // The report's parts stay parts (attachments), never folded into the text.
  keepDeliveryStatus: true,
  ignoreEmbedded: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
  checksumAlgo: false,
  maxHeadSize: MAX_ORIGINAL_HEADERS,
  maxChildNodes: 50,
} as const;

const DSN_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
const FEEDBACK_TYPES = new Set(['message/feedback-report']);
const ORIGINAL_TYPES = new Set([
  'text/rfc822-headers',
  'message/rfc822',
  'message/global',
  'message/global-headers',
]);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** `local+<letter id>@domain`: the letter's own envelope sender (VERP). */
const VERP_ID = new RegExp(`\\+(${UUID})@`, 'gi');
const BARE_ID = new RegExp(`^\\s*<?(${UUID})>?\\s*$`, 'i');
const ADDRESS_IN_TEXT = /[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g;

/** The fields of one block of `Name: value` lines, keys lower-cased, values unfolded. */
function fields(block: string): Record<string, string[]> {
  return libmime.decodeHeaders(block, { skipPrototypeKeys: true });
}

const first = (values: Record<string, string[]>, key: string): string =>
  (values[key]?.[0] ?? '').replace(/\s+/g, ' ').trim();

/** `rfc822; Reader@Example.com` → `reader@example.com`; another address type → null. */
function typedAddress(value: string): string | null {
  const match = /^\s*(?:(rfc822|utf-8)\s*;)?\s*<?([^\s<>;]+@[^\s<>;]+?)>?\s*$/i.exec(value);
  if (!match?.[2] || (value.includes(';') && !match[1])) return null;
  return plainAddress(match[2]);
}

function plainAddress(value: string): string | null {
  const lower = value.trim().toLowerCase();
  return address.safeParse(lower).success ? lower : null;
}

function addressesIn(text: string): string[] {
  return (text.match(ADDRESS_IN_TEXT) ?? []).flatMap((a) => plainAddress(a) ?? []);
}

const verpIds = (text: string) => [...text.matchAll(VERP_ID)].map((m) => m[1]!.toLowerCase());

/** The header block of a returned message or its headers part. */
function headerBlock(part: Attachment): string {
  const text = part.content.subarray(0, MAX_ORIGINAL_HEADERS).toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/** Letter ids in what the report says about the mail it reports on. */
function idsFromOriginal(headers: Record<string, string[]>): string[] {
  const ids = (headers[LETTER_ID_HEADER.toLowerCase()] ?? []).flatMap((value) => {
    const id = BARE_ID.exec(value)?.[1];
    return id ? [id.toLowerCase()] : [];
  });
  for (const returnPath of headers['return-path'] ?? []) ids.push(...verpIds(returnPath));
  return ids;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

function readDsnRecipient(group: Record<string, string[]>): DsnRecipient {
  const status = /^([245]\.\d{1,3}\.\d{1,3})\b/.exec(first(group, 'status'))?.[1] ?? null;
  return {
    finalRecipient: typedAddress(first(group, 'final-recipient')),
    originalRecipient: typedAddress(first(group, 'original-recipient')),
    action: (first(group, 'action').split(/[\s(]/)[0] ?? '').toLowerCase().slice(0, 40),
    status,
    diagnostic: first(group, 'diagnostic-code')
      .replace(/^smtp\s*;\s*/i, '')
      .slice(0, 200),
  };
}

/** The blocks of a delivery-status part: the message's fields, then one per recipient. */
function dsnGroups(part: Attachment): Record<string, string[]>[] {
  return part.content
    .toString('utf8')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => fields(block))
    .filter((group) => Object.keys(group).length > 0);
}

function contentTypeOf(mail: ParsedMail): { value: string; reportType: string } {
  const header = mail.headers.get('content-type');
  if (typeof header === 'object' && header !== null && 'value' in header) {
    const { value, params } = header as { value: unknown; params?: Record<string, unknown> };
    const reportType = params?.['report-type'];
    return {
      value: String(value).toLowerCase(),
      reportType: typeof reportType === 'string' ? reportType.toLowerCase() : '',
    };
  }
  return {
    value: typeof header === 'string' ? header.toLowerCase() : 'text/plain',
    reportType: '',
  };
}

/** The refusal of a mail over MAX_MAIL_BYTES (`size`: its bytes, or as many as were read). */
export function tooLarge(size: number): MailReportError {
  return new MailReportError(
    `メールが大きすぎます (${formatNumber(size)} バイト)。不達通知・迷惑メールの報告として読めるのは ${MAX_MAIL_BYTES / 1024 / 1024} MiB までです。何も変更していません。`,
  );
}

/**
 * Parses one returned mail into a report. Throws MailReportError (in Japanese) for a mail that
 * is empty, too large or not readable as a mail; a readable mail that is no report of ours is
 * kind `other`.
 */
export async function readMailReport(raw: Buffer): Promise<MailReport> {
  if (raw.length === 0)
    throw new MailReportError('メールが空です。1 通のメールをそのまま渡してください。');
  if (raw.length > MAX_MAIL_BYTES) throw tooLarge(raw.length);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, PARSER_OPTIONS);
  } catch (error) {
    throw new MailReportError(
      `メールとして読み取れません (${error instanceof Error ? error.message : String(error)})。何も変更していません。`,
    );
  }
  const type = contentTypeOf(mail);
  const parts = mail.attachments;
  const partOf = (types: Set<string>) => parts.find((p) => types.has(p.contentType.toLowerCase()));
  const dsnPart = partOf(DSN_TYPES);
  const feedbackPart = partOf(FEEDBACK_TYPES);
  const original = partOf(ORIGINAL_TYPES);
  const originalHeaders = original ? fields(headerBlock(original)) : {};
  // The report was addressed to the letter's envelope sender: its id is in our own address.
  const addressedTo = mail.headerLines
    .filter((h) => ['to', 'delivered-to', 'x-original-to'].includes(h.key))
    .flatMap((h) => verpIds(h.line));
  const ids = [...addressedTo, ...idsFromOriginal(originalHeaders)];
  const isReport = type.value === 'multipart/report';

  if (isReport && type.reportType === 'delivery-status' && dsnPart) {
    const [perMessage, ...perRecipient] = dsnGroups(dsnPart);
    const recipients = perRecipient
      .filter((group) => group['final-recipient'] || group['action'])
      .slice(0, MAX_RECIPIENTS)
      .map(readDsnRecipient);
    ids.push(...verpIds(first(perMessage ?? {}, 'x-postfix-sender')));
    return mailReportSchema.parse({
      kind: 'delivery-status',
      letterIds: unique(ids).slice(0, MAX_LETTER_IDS),
      recipients,
    });
  }
  if (isReport && type.reportType === 'feedback-report' && feedbackPart) {
    const report = fields(feedbackPart.content.toString('utf8'));
    ids.push(...verpIds(first(report, 'original-mail-from')));
    const recipients = [
      ...(report['original-rcpt-to'] ?? []).flatMap(addressesIn),
      ...(originalHeaders['to'] ?? []).flatMap(addressesIn),
    ];
    return mailReportSchema.parse({
      kind: 'feedback',
      letterIds: unique(ids).slice(0, MAX_LETTER_IDS),
      feedbackType: first(report, 'feedback-type').toLowerCase().slice(0, 40),
      recipients: unique(recipients).slice(0, MAX_RECIPIENTS),
      source: (first(report, 'user-agent') || first(report, 'reporting-mta')).slice(0, 100),
    });
  }
  return mailReportSchema.parse({
    kind: 'other',
    contentType: (type.reportType
      ? `${type.value}; report-type=${type.reportType}`
      : type.value
    ).slice(0, 200),
  });
}
