/**
 * 請求書払い (docs/decisions/059-invoice-billing.md): invoice-billed subscriptions paid by bank
 * transfer, their seats, the printable invoice and quote, and whether a customer is paid up.
 * The feature's one entry (docs/decisions/045-server-tiers.md); organisations call it with
 * their provider customer and subscription ids.
 */
export {
  BANK_TRANSFER_SETTINGS,
  DEFAULT_DAYS_UNTIL_DUE,
  MAX_SEATS,
  SEATS_PAID_KEY,
  changeSeats,
  fundBankTransfer,
  startInvoiceSubscription,
  usableSeats,
} from './subscriptions';
export type { BillingActor, InvoiceSubscriptionInput, SeatChange } from './subscriptions';
export {
  QUOTE_VALID_DAYS,
  bankAccountOf,
  customerInvoices,
  invoiceDocument,
  quoteDocument,
} from './documents';
export { invoiceStanding, standingOf } from './standing';
export {
  applyOrganizationBillingEvent,
  applyReturnedCheckout,
  billSeatChange,
  invoiceForViewer,
  organizationInvoiceList,
  quotePathOf,
  settleOrganizationBilling,
  startOrganizationBilling,
} from './organizations';
export {
  cardCheckoutPagePath,
  cardCheckoutTerms,
  organizationPagePath,
  startOrganizationCheckout,
} from './card';
export type { CardCheckoutTerms } from './card';
export type { InvoiceStanding } from './standing';
export type * from './views';
