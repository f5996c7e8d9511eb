/**
 * Where a partner's contract stands, and how the screens name it (the state itself is decided
 * by src/server/features/partners/contracts.ts).
 */

export type ContractState = 'none' | 'upcoming' | 'active' | 'ended';

export const CONTRACT_STATE_LABELS: Readonly<Record<ContractState, string>> = {
  none: '契約なし',
  upcoming: '契約開始前',
  active: '契約中',
  ended: '契約終了',
};
