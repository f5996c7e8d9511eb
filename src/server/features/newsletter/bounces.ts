import 'server-only';
import { and, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { newsletterLetters } from '@/server/platform/db/schema';
import { NOT_THE_ADDRESS } from './delivery';
import type { DsnRecipient, MailReport } from './mail-report';
import {
  type AutomaticSuppression,
  REPORT_ACTOR,
  normaliseAddress,
  suppressAutomatically,
} from './suppressions';

/**
 * Applies a bounce or a complaint that came back by mail (mail-report.ts reads it) to the
 * suppression list (docs/decisions/026-newsletter-queue.md). The report is matched to our letter
 * by the letter's id when it carries one (its envelope sender, or the returned copy's
 * `X-Newsletter-Letter-Id`): the letter's address is the one suppressed, whatever the receiving
 * side's aliases made of it. Without an id, the addresses the report names count only if a
 * letter was sent to them. A permanent failure of the address suppresses it as `bounce`, an
 * abuse report as `complaint`; a delay, a refusal about us or our message rather than the
 * address, and any other kind of feedback change nothing.
 */

/** What a report means for one address. */
export type ReportVerdict =
  'bounce' | 'complaint' | 'delayed' | 'not-the-address' | 'not-failed' | 'not-a-complaint';

export type AddressResult = {
  email: string;
  /** How the address was found: the letter's id, or an address we sent to. */
  matchedBy: 'letter' | 'address';
  verdict: ReportVerdict;
  /** The status code or feedback type behind the verdict. */
  code: string;
  /** For bounce and complaint: what the suppression list did. */
  suppression: AutomaticSuppression | null;
};

export type ReportOutcome =
  | { kind: 'not-a-report'; contentType: string }
  | { kind: 'unknown-recipient' }
  | { kind: 'applied'; results: AddressResult[] };

/** Feedback types that are a reader's complaint (RFC 5965 §7.3: abuse; fraud is phishing). */
const COMPLAINTS = new Set(['abuse', 'fraud']);

/** The verdict of a delivery status report's entries about one address. */
export function dsnVerdict(entries: DsnRecipient[]): { verdict: ReportVerdict; code: string } {
  const permanent = entries.filter((e) => e.action === 'failed' && e.status?.startsWith('5.'));
  const ofAddress = permanent.find((e) => !NOT_THE_ADDRESS.has(e.status!.split('.')[1]!));
  if (ofAddress) return { verdict: 'bounce', code: ofAddress.status! };
  if (permanent[0]) return { verdict: 'not-the-address', code: permanent[0].status! };
  const delayed = entries.find((e) => e.action === 'delayed' || e.status?.startsWith('4.'));
  if (delayed) return { verdict: 'delayed', code: delayed.status ?? delayed.action };
  const other = entries[0];
  return { verdict: 'not-failed', code: other ? (other.status ?? other.action) : '' };
}

/** Letters the report names by id: their address as sent. */
async function lettersById(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ email: newsletterLetters.email })
    .from(newsletterLetters)
    .where(inArray(newsletterLetters.id, ids));
  return [...new Set(rows.map((r) => normaliseAddress(r.email)))];
}

/**
 * Of the given addresses, the ones a letter was sent to (or may have been: uncertain). Only for
 * a report without a letter id, so a rare query; it scans the letters' addresses.
 */
async function addressesSentTo(db: Db, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ email: sql<string>`lower(${newsletterLetters.email})` })
    .from(newsletterLetters)
    .where(
      and(
        inArray(sql`lower(${newsletterLetters.email})`, addresses),
        inArray(newsletterLetters.status, ['sent', 'uncertain']),
      ),
    );
  return new Set(rows.map((r) => r.email));
}

const recipientAddresses = (entry: DsnRecipient) =>
  [entry.originalRecipient, entry.finalRecipient].filter((a): a is string => a !== null);

/** The addresses the report is about, each with the report's entries about it. */
async function targets(
  db: Db,
  report: Exclude<MailReport, { kind: 'other' }>,
): Promise<{ email: string; matchedBy: AddressResult['matchedBy']; entries: DsnRecipient[] }[]> {
  const dsn = report.kind === 'delivery-status' ? report.recipients : [];
  const byLetter = await lettersById(db, report.letterIds);
  // A report about our letter is about its one recipient, whatever address it names.
  if (byLetter.length > 0)
    return byLetter.map((email) => ({ email, matchedBy: 'letter', entries: dsn }));
  const named =
    report.kind === 'delivery-status' ? dsn.flatMap(recipientAddresses) : report.recipients;
  const sent = await addressesSentTo(db, [...new Set(named)]);
  return [...sent].map((email) => ({
    email,
    matchedBy: 'address',
    entries: dsn.filter((entry) => recipientAddresses(entry).includes(email)),
  }));
}

function noteOf(report: MailReport, verdict: ReportVerdict, entries: DsnRecipient[]): string {
  if (report.kind === 'feedback')
    return `迷惑メールとして報告されました (${report.feedbackType}${report.source ? `、${report.source}` : ''})`;
  const entry = entries.find((e) => e.action === 'failed') ?? entries[0];
  const detail = [entry?.status, entry?.diagnostic].filter(Boolean).join(' ');
  return `不達通知が返送されました${verdict === 'bounce' && detail ? `: ${detail}` : ''}`;
}

/** Applies one report; `via` (the command's actor) is kept in the audit record. */
export async function applyMailReport(
  db: Db,
  report: MailReport,
  via: string,
): Promise<ReportOutcome> {
  if (report.kind === 'other') return { kind: 'not-a-report', contentType: report.contentType };
  const found = await targets(db, report);
  if (found.length === 0) return { kind: 'unknown-recipient' };
  const results: AddressResult[] = [];
  for (const { email, matchedBy, entries } of found) {
    const { verdict, code } =
      report.kind === 'feedback'
        ? {
            verdict: COMPLAINTS.has(report.feedbackType)
              ? ('complaint' as const)
              : ('not-a-complaint' as const),
            code: report.feedbackType,
          }
        : dsnVerdict(entries);
    const reason = verdict === 'bounce' || verdict === 'complaint' ? verdict : null;
    const suppression = reason
      ? await suppressAutomatically(db, {
          email,
          reason,
          note: noteOf(report, verdict, entries),
          actor: REPORT_ACTOR,
          detail: { code, matchedBy, via },
        })
      : null;
    results.push({ email, matchedBy, verdict, code, suppression });
  }
  return { kind: 'applied', results };
}
