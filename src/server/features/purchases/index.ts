/**
 * The purchases feature's one entry (docs/decisions/045-server-tiers.md): the ledger of
 * one-time payments (docs/decisions/053-one-time-payments.md), written by billing, read by the
 * post page's reader, the front server's audience, the account page and the business report.
 */
export {
  hasPaidPurchase,
  insertPendingPurchase,
  listPaidTips,
  listPurchasesOf,
  livePostPurchase,
  markPurchaseExpired,
  markPurchaseFailed,
  markPurchasePaid,
  markPurchaseRefunded,
  newPurchaseId,
  notePurchaseVoucher,
  ownsPost,
  purchaseById,
  purchaseOf,
  purchaseByPaymentIntent,
  setPurchaseSession,
  type PaidTip,
  type Purchase,
  type PurchasedPost,
  type TipTotal,
} from './ledger';
export { paidPaymentsSince, type PaidPayment } from './revenue';
