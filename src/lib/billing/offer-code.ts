import { z } from '@/lib/zod';

/** What an offer's code may look like in a URL (the provider's: letters, digits, dashes). */
export const offerCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,40}$/);

/** A code from a query or a form, or undefined for anything that cannot be one. */
export function readOfferCode(value: unknown): string | undefined {
  const parsed = offerCodeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
