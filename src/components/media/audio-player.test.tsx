// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type MockInstance, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIO_KEY_SHORTCUTS, AudioPlayer, ownsKey } from './audio-player.client';

/** jsdom has no media playback: the element's state is kept here. */
type Media = { paused: boolean; currentTime: number; duration: number };

function setup(media: Partial<Media> = {}) {
  const state: Media = { paused: true, currentTime: 0, duration: 600, ...media };
  const view = render(<AudioPlayer src="/media/talk.mp3" title="デザインの話" />);
  const element = view.container.querySelector('audio')!;
  Object.defineProperty(element, 'paused', { configurable: true, get: () => state.paused });
  Object.defineProperty(element, 'duration', { configurable: true, get: () => state.duration });
  Object.defineProperty(element, 'currentTime', {
    configurable: true,
    get: () => state.currentTime,
    set: (value: number) => {
      state.currentTime = value;
    },
  });
  const group = screen.getByRole('group', { name: '音声プレーヤー: デザインの話' });
  const status = screen.getByRole('status');
  return { state, element, group, status };
}

let play: MockInstance<HTMLMediaElement['play']>;
let pause: MockInstance<HTMLMediaElement['pause']>;

beforeEach(() => {
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    Object.defineProperty(this, 'paused', { configurable: true, get: () => false });
    return Promise.resolve();
  });
  pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    Object.defineProperty(this, 'paused', { configurable: true, get: () => true });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('AudioPlayer', () => {
  it('is a focusable, labelled group that names its keys and shows a hint', () => {
    const { group } = setup();
    expect(group).toHaveAttribute('tabindex', '0');
    expect(group).toHaveAttribute('aria-keyshortcuts', AUDIO_KEY_SHORTCUTS);
    expect(AUDIO_KEY_SHORTCUTS).toContain('Space');
    expect(AUDIO_KEY_SHORTCUTS).toContain('ArrowLeft');
    expect(group).toHaveAccessibleDescription(/Space・K 再生／一時停止/);
    expect(screen.getByText(/キー操作/)).toBeVisible();
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    // What worked before is still there.
    expect(screen.getByRole('button', { name: '15 秒戻る' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '15 秒進む' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '再生速度' })).toHaveValue('1');
  });

  it('plays and pauses with Space and K on the group', async () => {
    const user = userEvent.setup();
    const { group, status } = setup({ currentTime: 75 });
    group.focus();
    await user.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent('再生しました');
    await user.keyboard('k');
    expect(pause).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent('一時停止しました（1分15秒）');
    await user.keyboard('K');
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('says so when the browser refuses to play', async () => {
    play.mockImplementation(() => Promise.reject(new DOMException('no', 'NotAllowedError')));
    const user = userEvent.setup();
    const { group, status } = setup();
    group.focus();
    await user.keyboard(' ');
    expect(status).toHaveTextContent('再生できませんでした');
  });

  it('skips 15 seconds with ←/→ and J/L, within the file', async () => {
    const user = userEvent.setup();
    const { group, state, status } = setup({ currentTime: 100, duration: 130 });
    group.focus();
    await user.keyboard('{ArrowRight}');
    expect(state.currentTime).toBe(115);
    expect(status).toHaveTextContent('15秒進めました（1分55秒）');
    await user.keyboard('l');
    expect(state.currentTime).toBe(130); // not past the end
    await user.keyboard('{ArrowLeft}');
    expect(state.currentTime).toBe(115);
    expect(status).toHaveTextContent('15秒戻しました（1分55秒）');
    await user.keyboard('jjjjjjjjj');
    expect(state.currentTime).toBe(0); // not before the start
  });

  it('steps the speed with ↑/↓ and >/<, and stops at the ends', async () => {
    const user = userEvent.setup();
    const { group, element, status } = setup();
    const select = screen.getByRole('combobox', { name: '再生速度' });
    group.focus();
    await user.keyboard('{ArrowUp}');
    expect(element.playbackRate).toBe(1.25);
    expect(select).toHaveValue('1.25');
    expect(status).toHaveTextContent('再生速度 1.25倍');
    await user.keyboard('>');
    expect(element.playbackRate).toBe(1.5);
    expect(status).toHaveTextContent('再生速度 1.5倍');
    await user.keyboard('>>>');
    expect(element.playbackRate).toBe(2);
    expect(status).toHaveTextContent('再生速度 2倍（最速です）');
    await user.keyboard('{ArrowDown}<<<<');
    expect(element.playbackRate).toBe(0.75);
    expect(status).toHaveTextContent('再生速度 0.75倍（最も遅い速度です）');
  });

  it('keeps the page from scrolling on the keys it uses, and leaves other keys alone', () => {
    const { group, state } = setup({ currentTime: 30 });
    expect(fireEvent.keyDown(group, { key: ' ' })).toBe(false); // default prevented
    expect(fireEvent.keyDown(group, { key: 'ArrowDown' })).toBe(false);
    expect(fireEvent.keyDown(group, { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(group, { key: 'a' })).toBe(true);
    // With a modifier it is a browser or system shortcut, not ours.
    expect(fireEvent.keyDown(group, { key: 'ArrowRight', altKey: true })).toBe(true);
    expect(fireEvent.keyDown(group, { key: 'l', ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(group, { key: 'k', metaKey: true })).toBe(true);
    expect(state.currentTime).toBe(30);
  });

  it('leaves Space to a focused button (it activates it) but takes the arrows and letters', async () => {
    const user = userEvent.setup();
    const { state } = setup({ currentTime: 60 });
    const back = screen.getByRole('button', { name: '15 秒戻る' });
    back.focus();
    await user.keyboard(' '); // the button's own click: back once, no play
    expect(state.currentTime).toBe(45);
    expect(play).not.toHaveBeenCalled();
    await user.keyboard('{ArrowRight}');
    expect(state.currentTime).toBe(60);
    await user.keyboard('k');
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('leaves every key to the speed select and Space and the arrows to the audio controls', () => {
    const { element, state } = setup({ currentTime: 60 });
    const select = screen.getByRole('combobox', { name: '再生速度' });
    for (const key of [' ', 'k', 'ArrowLeft', 'ArrowUp', 'l', '>'])
      expect(fireEvent.keyDown(select, { key })).toBe(true);
    expect(state.currentTime).toBe(60);
    expect(element.playbackRate).toBe(1);
    expect(play).not.toHaveBeenCalled();

    for (const key of [' ', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'])
      expect(fireEvent.keyDown(element, { key })).toBe(true);
    expect(state.currentTime).toBe(60);
    expect(element.playbackRate).toBe(1);
    // Letters mean nothing to the native controls: they still work there.
    fireEvent.keyDown(element, { key: 'l' });
    expect(state.currentTime).toBe(75);
  });

  it('announces the 15-second buttons and follows a speed set by the browser', () => {
    const { element, state, status } = setup({ currentTime: 10 });
    fireEvent.click(screen.getByRole('button', { name: '15 秒進む' }));
    expect(state.currentTime).toBe(25);
    expect(status).toHaveTextContent('15秒進めました（25秒）');
    act(() => {
      element.playbackRate = 0.5;
      element.dispatchEvent(new Event('ratechange'));
    });
    expect(screen.getByRole('combobox', { name: '再生速度' })).toHaveValue('0.5');
    fireEvent.keyDown(element.parentElement!, { key: 'ArrowUp' });
    expect(element.playbackRate).toBe(0.75);
  });

  it('changes the speed from the select as before', async () => {
    const user = userEvent.setup();
    const { element } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: '再生速度' }), '1.5');
    expect(element.playbackRate).toBe(1.5);
  });
});

describe('ownsKey', () => {
  const make = (html: string) => {
    const host = document.createElement('div');
    host.innerHTML = html;
    return host.firstElementChild!;
  };
  it('knows which native controls use which keys', () => {
    expect(ownsKey(make('<input type="range">'), 'ArrowLeft')).toBe(true);
    expect(ownsKey(make('<input type="range">'), 'k')).toBe(false);
    expect(ownsKey(make('<input type="text">'), 'k')).toBe(true);
    expect(ownsKey(make('<textarea></textarea>'), ' ')).toBe(true);
    expect(ownsKey(make('<button>x</button>'), ' ')).toBe(true);
    expect(ownsKey(make('<button>x</button>'), 'ArrowRight')).toBe(false);
    expect(ownsKey(make('<input type="checkbox">'), ' ')).toBe(true);
    expect(ownsKey(make('<div role="slider" tabindex="0"></div>'), 'ArrowUp')).toBe(true);
    expect(ownsKey(make('<div tabindex="0"></div>'), ' ')).toBe(false);
    expect(ownsKey(null, ' ')).toBe(false);
  });
});
