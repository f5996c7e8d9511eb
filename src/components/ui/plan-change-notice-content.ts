/**
 * What the plan-change notice says and what its button runs: shared by the provider
 * (plan-change-notice.client.tsx) and the modal it loads lazily, which would otherwise import
 * each other.
 */

export type CustomerPortalEvent = () => void | Promise<void>;

export const PLAN_CHANGE_NOTICE_HEADING = 'プラン変更にともなう注意事項';

/** SPEC §2: the three things a subscriber must know before changing plan. */
export const PLAN_CHANGE_NOTICE_STATEMENTS = [
  'プランはいつでも変更できます。',
  '有料プランから別の有料プランへの変更は、現在のプランの期間の終了を待たず、すぐに反映されます。',
  '変更により利用できなくなった期間の料金は返金されません。',
] as const;
