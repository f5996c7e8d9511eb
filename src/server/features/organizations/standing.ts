import { env } from '@/env';

const DAY_MS = 86_400_000;

/**
 * Whether the seats are suspended: an invoice unpaid since `overdueSince` (its due date) and
 * the publisher's grace period passed too. Decided from the organisation's row, which the access
 * look already reads with the seat: no query of its own.
 */
export function seatsSuspended(
  overdueSince: Date | null,
  now: Date,
  graceDays = env().INVOICE_GRACE_DAYS,
): boolean {
  return overdueSince !== null && now.getTime() >= overdueSince.getTime() + graceDays * DAY_MS;
}
