/**
 * The newsletter feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { applyMailReport, type AddressResult } from './bounces';
export { hasLetterParam } from './letter-param';
export { mailReportSchema, MAX_MAIL_BYTES, readMailReport, tooLarge } from './mail-report';
export { answerLetterVisit } from './opens';
export { answerLetterTracking, isTrackingPath, lastLetterOpen, trackingAllowed } from './tracking';
export { followPostPublications, NewsletterError, queueNewsletter, SEGMENTS } from './queue';
export { startNewsletterSender, stopNewsletterSender } from './sender';
export { suppressAddress, SUPPRESSION_REASONS, unsuppressAddress } from './suppressions';
