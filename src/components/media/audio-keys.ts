/** What the audio player does with a key, and the keys it leaves to the focused control. */

export const SKIP_BACK_SECONDS = 15;
export const SKIP_FORWARD_SECONDS = 30;
/** The seek bar's own steps: the arrows move a little, Page Up / Page Down a minute. */
export const SEEK_STEP_SECONDS = 5;
export const SEEK_PAGE_SECONDS = 60;

export type AudioAction = 'toggle' | 'back' | 'forward' | 'faster' | 'slower' | 'mute';

const KEY_ACTIONS: Record<string, AudioAction> = {
  ' ': 'toggle',
  k: 'toggle',
  K: 'toggle',
  ArrowLeft: 'back',
  j: 'back',
  J: 'back',
  ArrowRight: 'forward',
  l: 'forward',
  L: 'forward',
  ArrowUp: 'faster',
  '>': 'faster',
  ArrowDown: 'slower',
  '<': 'slower',
  m: 'mute',
  M: 'mute',
};

export const actionForKey = (key: string): AudioAction | undefined => KEY_ACTIONS[key];

/** The keys the player answers to, as aria-keyshortcuts spells them. */
export const AUDIO_KEY_SHORTCUTS = 'Space K ArrowLeft ArrowRight J L ArrowUp ArrowDown > < M';

/** The help the player shows under 「キーボード操作」, in the order a listener needs them. */
export const KEY_HELP: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ['Space', 'K'], action: '再生・一時停止' },
  { keys: ['←', 'J'], action: `${SKIP_BACK_SECONDS}秒戻る` },
  { keys: ['→', 'L'], action: `${SKIP_FORWARD_SECONDS}秒進む` },
  { keys: ['↑', '>'], action: '再生速度を上げる' },
  { keys: ['↓', '<'], action: '再生速度を下げる' },
  { keys: ['M'], action: 'ミュート・解除' },
];

/** What the keys do while the seek bar has the focus (as any slider). */
export const SEEK_KEY_HELP: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ['←', '↓'], action: `${SEEK_STEP_SECONDS}秒戻る` },
  { keys: ['→', '↑'], action: `${SEEK_STEP_SECONDS}秒進む` },
  { keys: ['Page Down'], action: `${SEEK_PAGE_SECONDS / 60}分戻る` },
  { keys: ['Page Up'], action: `${SEEK_PAGE_SECONDS / 60}分進む` },
  { keys: ['Home'], action: '先頭へ' },
  { keys: ['End'], action: '最後へ' },
];

const ARROWS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);
const PRESS_TYPES = new Set(['button', 'submit', 'reset', 'checkbox', 'image', 'color', 'file']);

/**
 * Whether the focused element already does something with this key, so the player must leave
 * it alone: buttons activate on Space, a select and text fields take letters and arrows, a
 * slider moves with the arrows, a radio group with the arrows and Space, the browser's own
 * media controls play on Space and seek with the arrows.
 */
export function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  switch (target.tagName) {
    case 'TEXTAREA':
    case 'SELECT':
      return true;
    case 'INPUT': {
      const type = (target as HTMLInputElement).type;
      if (type === 'range') return ARROWS.has(key);
      if (type === 'radio') return ARROWS.has(key) || key === ' ';
      if (PRESS_TYPES.has(type)) return key === ' ';
      return true; // text, number, search…: every key is typing
    }
    case 'BUTTON':
    case 'SUMMARY':
      return key === ' ';
    case 'AUDIO':
    case 'VIDEO':
      return key === ' ' || ARROWS.has(key);
    default:
      return target.getAttribute('role') === 'slider' && ARROWS.has(key);
  }
}

/**
 * Where a key on the seek bar takes the position, or undefined for keys that are not the
 * slider's. Handled here rather than by the browser, whose range input steps by `step` (the
 * bar's step is "any", so a drag is not snapped to whole steps).
 */
export function seekKeyTarget(key: string, current: number, duration: number): number | undefined {
  const to = (seconds: number) => Math.max(0, Math.min(duration, seconds));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return to(current - SEEK_STEP_SECONDS);
    case 'ArrowRight':
    case 'ArrowUp':
      return to(current + SEEK_STEP_SECONDS);
    case 'PageDown':
      return to(current - SEEK_PAGE_SECONDS);
    case 'PageUp':
      return to(current + SEEK_PAGE_SECONDS);
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return undefined;
  }
}
