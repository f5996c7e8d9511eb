/**
 * The purchases feature's one entry (docs/decisions/045-server-tiers.md): the ledger of
 * one-time payments (docs/decisions/053-one-time-payments.md), written by billing, read by the
 * post page's reader, the front server's audience and the account page.
 */
export {
  hasPaidPurchase,
  insertPendingPurchase,
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
  type Purchase,
  type PurchasedPost,
} from './ledger';
