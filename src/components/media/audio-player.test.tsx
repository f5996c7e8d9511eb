// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { type MockInstance, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIO_KEY_SHORTCUTS, ownsKey, seekKeyTarget } from './audio-keys';
import { AudioPlayer } from './audio-player.client';

/** jsdom has no media playback: the element's state is kept here, with the browser's events. */
type Media = { paused: boolean; currentTime: number; duration: number };

function fakeMedia(element: HTMLAudioElement, state: Media) {
  const emit = (type: string) => element.dispatchEvent(new Event(type));
  const property = (name: string, get: () => unknown, set?: (value: never) => void) =>
    Object.defineProperty(element, name, { configurable: true, get, set });
  property('paused', () => state.paused);
  property('duration', () => state.duration);
  // What the player sets: the value kept (the position in the shared state), then its event.
  const kept: Record<string, unknown> = { playbackRate: 1, volume: 1, muted: false };
  const settable: [Record<string, unknown>, string, string][] = [
    [state, 'currentTime', 'timeupdate'],
    [kept, 'playbackRate', 'ratechange'],
    [kept, 'volume', 'volumechange'],
    [kept, 'muted', 'volumechange'],
  ];
  for (const [store, name, event] of settable) {
    property(
      name,
      () => store[name],
      (value: never) => {
        store[name] = value;
        emit(event);
      },
    );
  }
  return emit;
}

function setup(media: Partial<Media> = {}, props: { duration?: number } = {}) {
  const state: Media = { paused: true, currentTime: 0, duration: 600, ...media };
  const view = render(<AudioPlayer src="/media/talk.mp3" title="デザインの話" {...props} />);
  const element = view.container.querySelector('audio')!;
  const emit = fakeMedia(element, state);
  act(() => {
    emit('loadedmetadata');
  });
  const player = screen.getByRole('group', { name: '音声プレーヤー: デザインの話' });
  return {
    state,
    element,
    emit,
    player,
    status: screen.getByRole('status'),
    seekBar: screen.getByRole('slider', { name: '再生位置' }),
    speed: screen.getByRole('combobox', { name: '再生速度' }),
  };
}

let play: MockInstance<HTMLMediaElement['play']>;
let pause: MockInstance<HTMLMediaElement['pause']>;

/** The player's one state the fake keeps per element: playing or not, announced by an event. */
function playingState(element: HTMLMediaElement, paused: boolean) {
  Object.defineProperty(element, 'paused', { configurable: true, get: () => paused });
  element.dispatchEvent(new Event(paused ? 'pause' : 'play'));
}

beforeEach(() => {
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    playingState(this, false);
    return Promise.resolve();
  });
  pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    playingState(this, true);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('AudioPlayer without JavaScript', () => {
  it('is the browser’s own audio controls, with the file', () => {
    const html = renderToString(<AudioPlayer src="/media/talk.mp3" title="デザインの話" />);
    const host = document.createElement('div');
    host.innerHTML = html;
    const audio = host.querySelector('audio');
    expect(audio).toHaveAttribute('controls');
    expect(audio).toHaveAttribute('src', '/media/talk.mp3');
    // None of the controls that only work with JavaScript.
    expect(host.querySelector('button, input, select')).toBeNull();
  });
});

describe('AudioPlayer', () => {
  it('replaces the native controls with its own once it runs', () => {
    const { element, player } = setup();
    expect(element).not.toHaveAttribute('controls');
    expect(player).toHaveAttribute('aria-keyshortcuts', AUDIO_KEY_SHORTCUTS);
    expect(player).toHaveAccessibleDescription(/キーボードでも操作できます/);
  });

  it('plays and pauses with the play button, which says what it will do', async () => {
    const user = userEvent.setup();
    const { status } = setup({ currentTime: 75 });
    await user.click(screen.getByRole('button', { name: '再生' }));
    expect(play).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent('再生しました');
    await user.click(screen.getByRole('button', { name: '一時停止' }));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent('一時停止しました（1分15秒）');
    expect(screen.getByRole('button', { name: '再生' })).toBeInTheDocument();
  });

  it('follows a pause from outside the page (a media key, the lock screen)', () => {
    const { element } = setup();
    act(() => {
      playingState(element, false);
    });
    expect(screen.getByRole('button', { name: '一時停止' })).toBeInTheDocument();
    act(() => {
      playingState(element, true);
    });
    expect(screen.getByRole('button', { name: '再生' })).toBeInTheDocument();
  });

  it('says so when the browser refuses to play', async () => {
    play.mockImplementation(() => Promise.reject(new DOMException('no', 'NotAllowedError')));
    const user = userEvent.setup();
    const { status } = setup();
    await user.click(screen.getByRole('button', { name: '再生' }));
    expect(status).toHaveTextContent('再生できませんでした');
  });

  it('plays and pauses with Space and K anywhere in the player', async () => {
    const user = userEvent.setup();
    const { seekBar } = setup();
    seekBar.focus();
    await user.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);
    await user.keyboard('k');
    expect(pause).toHaveBeenCalledTimes(1);
    await user.keyboard('K');
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('shows the position on the clock and speaks it on the seek bar', () => {
    const { seekBar, state, emit } = setup({ currentTime: 192, duration: 1445 });
    expect(seekBar).toHaveAttribute('aria-valuetext', '3分12秒 / 24分5秒');
    expect(screen.getByText('3:12')).toBeInTheDocument();
    expect(screen.getByText('24:05')).toBeInTheDocument();
    state.currentTime = 200;
    act(() => {
      emit('timeupdate');
    });
    expect(seekBar).toHaveAttribute('aria-valuetext', '3分20秒 / 24分5秒');
  });

  it('shows the length the CMS gives until the file’s own is known', () => {
    const { seekBar } = setup({ duration: Number.NaN }, { duration: 1445 });
    expect(seekBar).toHaveAttribute('aria-valuetext', '0秒 / 24分5秒');
    expect(seekBar).toBeEnabled();
  });

  it('seeks with the keyboard on the seek bar: 5 s, a minute, the ends', async () => {
    const user = userEvent.setup();
    const { seekBar, state } = setup({ currentTime: 100, duration: 600 });
    seekBar.focus();
    await user.keyboard('{ArrowRight}');
    expect(state.currentTime).toBe(105);
    expect(seekBar).toHaveAttribute('aria-valuetext', '1分45秒 / 10分');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(state.currentTime).toBe(95);
    await user.keyboard('{PageUp}');
    expect(state.currentTime).toBe(155);
    await user.keyboard('{End}');
    expect(state.currentTime).toBe(600);
    await user.keyboard('{Home}');
    expect(state.currentTime).toBe(0);
    expect(play).not.toHaveBeenCalled();
  });

  it('seeks where the seek bar is dragged', () => {
    const { seekBar, state } = setup({ duration: 600 });
    fireEvent.change(seekBar, { target: { value: '321.5' } });
    expect(state.currentTime).toBe(321.5);
    expect(seekBar).toHaveAttribute('aria-valuetext', '5分21秒 / 10分');
  });

  it('goes 15 s back and 30 s forward with the buttons and with J/L, within the file', async () => {
    const user = userEvent.setup();
    const { state, status } = setup({ currentTime: 100, duration: 140 });
    await user.click(screen.getByRole('button', { name: '30秒進む' }));
    expect(state.currentTime).toBe(130);
    expect(status).toHaveTextContent('30秒進めました（2分10秒）');
    await user.keyboard('l');
    expect(state.currentTime).toBe(140); // not past the end
    await user.click(screen.getByRole('button', { name: '15秒戻る' }));
    expect(state.currentTime).toBe(125);
    expect(status).toHaveTextContent('15秒戻しました（2分5秒）');
    await user.keyboard('jjjjjjjjjj');
    expect(state.currentTime).toBe(0); // not before the start
  });

  it('skips with ←/→ when a button has the focus (the arrows are not the button’s)', async () => {
    const user = userEvent.setup();
    const { state } = setup({ currentTime: 60 });
    screen.getByRole('button', { name: '再生' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(state.currentTime).toBe(90);
    await user.keyboard('{ArrowLeft}');
    expect(state.currentTime).toBe(75);
  });

  it('changes the speed from the select, and steps it with ↑/↓ and >/< up to the ends', async () => {
    const user = userEvent.setup();
    const { element, speed, status } = setup();
    await user.selectOptions(speed, '1.5');
    expect(element.playbackRate).toBe(1.5);
    expect(element.defaultPlaybackRate).toBe(1.5);
    screen.getByRole('button', { name: '再生' }).focus();
    await user.keyboard('{ArrowUp}');
    expect(element.playbackRate).toBe(1.75);
    expect(speed).toHaveValue('1.75');
    expect(status).toHaveTextContent('再生速度 1.75倍');
    await user.keyboard('>>');
    expect(element.playbackRate).toBe(2);
    expect(status).toHaveTextContent('再生速度 2倍（最速です）');
    await user.keyboard('{ArrowDown}<<<<<<');
    expect(element.playbackRate).toBe(0.75);
    expect(status).toHaveTextContent('再生速度 0.75倍（最も遅い速度です）');
    expect(
      within(speed)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['0.75倍', '1倍', '1.25倍', '1.5倍', '1.75倍', '2倍']);
  });

  it('follows a speed set elsewhere, and steps on from it', async () => {
    const user = userEvent.setup();
    const { element, speed } = setup();
    act(() => {
      element.playbackRate = 0.5;
    });
    expect(speed).toHaveValue('0.5');
    screen.getByRole('button', { name: '再生' }).focus();
    await user.keyboard('{ArrowUp}');
    expect(element.playbackRate).toBe(0.75);
  });

  it('mutes with the button and with M, and sets the volume', async () => {
    const user = userEvent.setup();
    const { element, status } = setup();
    const mute = screen.getByRole('button', { name: 'ミュート' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    expect(element.muted).toBe(true);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    expect(status).toHaveTextContent('ミュートしました');
    await user.keyboard('m');
    expect(element.muted).toBe(false);
    expect(status).toHaveTextContent('ミュートを解除しました');
    const volume = screen.getByRole('slider', { name: '音量' });
    fireEvent.change(volume, { target: { value: '0.4' } });
    expect(element.volume).toBe(0.4);
    expect(volume).toHaveAttribute('aria-valuetext', '音量 40%');
  });

  it('lists its keys in a 「キーボード操作」 disclosure', async () => {
    const user = userEvent.setup();
    setup();
    const summary = screen.getByText('キーボード操作', { selector: 'summary' });
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    await user.click(summary);
    expect(details.open).toBe(true);
    const keys = within(details);
    expect(keys.getByText('再生・一時停止').previousElementSibling).toHaveTextContent(
      'SpaceまたはK',
    );
    expect(keys.getByText('30秒進む')).toBeVisible();
    expect(keys.getByText('先頭へ')).toBeVisible();
  });

  it('shows an error when the file cannot be loaded (a signed URL that expired)', () => {
    const { element, emit } = setup();
    Object.defineProperty(element, 'error', { configurable: true, get: () => ({ code: 2 }) });
    act(() => {
      emit('error');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('音声を読み込めませんでした');
  });

  it('keeps the page from scrolling on the keys it uses, and leaves other keys alone', () => {
    const { player, state } = setup({ currentTime: 30 });
    expect(fireEvent.keyDown(player, { key: ' ' })).toBe(false); // default prevented
    expect(fireEvent.keyDown(player, { key: 'ArrowDown' })).toBe(false);
    expect(fireEvent.keyDown(player, { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(player, { key: 'a' })).toBe(true);
    // With a modifier it is a browser or system shortcut, not ours.
    expect(fireEvent.keyDown(player, { key: 'ArrowRight', altKey: true })).toBe(true);
    expect(fireEvent.keyDown(player, { key: 'l', ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(player, { key: 'k', metaKey: true })).toBe(true);
    expect(state.currentTime).toBe(30);
  });

  it('leaves Space to a focused button (it activates it) and every key to the speed select', async () => {
    const user = userEvent.setup();
    const { state, element, speed } = setup({ currentTime: 60 });
    screen.getByRole('button', { name: '15秒戻る' }).focus();
    await user.keyboard(' '); // the button's own click: back once, no play
    expect(state.currentTime).toBe(45);
    expect(play).not.toHaveBeenCalled();
    for (const key of [' ', 'k', 'ArrowLeft', 'ArrowUp', 'l', '>', 'm'])
      expect(fireEvent.keyDown(speed, { key })).toBe(true);
    expect(state.currentTime).toBe(45);
    expect(element.playbackRate).toBe(1);
    expect(element.muted).toBe(false);
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
    expect(ownsKey(make('<input type="range">'), ' ')).toBe(false); // Space still plays
    expect(ownsKey(make('<input type="range">'), 'k')).toBe(false);
    expect(ownsKey(make('<input type="radio">'), ' ')).toBe(true);
    expect(ownsKey(make('<input type="text">'), 'k')).toBe(true);
    expect(ownsKey(make('<textarea></textarea>'), ' ')).toBe(true);
    expect(ownsKey(make('<button>x</button>'), ' ')).toBe(true);
    expect(ownsKey(make('<button>x</button>'), 'ArrowRight')).toBe(false);
    expect(ownsKey(make('<summary>x</summary>'), ' ')).toBe(true);
    expect(ownsKey(make('<input type="checkbox">'), ' ')).toBe(true);
    expect(ownsKey(make('<div role="slider" tabindex="0"></div>'), 'ArrowUp')).toBe(true);
    expect(ownsKey(make('<div tabindex="0"></div>'), ' ')).toBe(false);
    expect(ownsKey(null, ' ')).toBe(false);
  });
});

describe('seekKeyTarget', () => {
  it('moves within the file and ignores keys that are not the slider’s', () => {
    expect(seekKeyTarget('ArrowUp', 2, 600)).toBe(7);
    expect(seekKeyTarget('ArrowDown', 2, 600)).toBe(0);
    expect(seekKeyTarget('PageUp', 580, 600)).toBe(600);
    expect(seekKeyTarget('PageDown', 90, 600)).toBe(30);
    expect(seekKeyTarget('k', 90, 600)).toBeUndefined();
  });
});
