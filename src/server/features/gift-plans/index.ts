/**
 * The gift-plans feature's one entry (docs/decisions/045-server-tiers.md): gifts of months of a
 * plan (docs/decisions/054-gift-subscriptions.md) — their table, links, mails and scheduled
 * rounds. Billing sells them, applies their payments and redeems them (it calls in here); the
 * gift pages and the account page read them.
 */
export {
  deliverDueGifts,
  deliverIfDue,
  remindEndingGifts,
  startGiftRunner,
  stopGiftRunner,
} from './deliver';
export {
  type GiftWithPurchase,
  type SentGift,
  endsGiftExtension,
  giftByToken,
  giverNameOf,
  insertPlanGift,
  lastGiftEndOf,
  listGiftsSentBy,
  markRedeemed,
  markRevoked,
  planGiftOf,
  redeemableUntil,
} from './store';
