// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileValue, MediaValue } from '@/lib/admin-content';
import { MediaPicker } from './media-picker.client';
import type { MediaItem, MediaListAnswer } from '@/lib/media/media-shared';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: vi.fn() }) }));

// jsdom has <dialog> but not its modal methods: enough of them for focus and the close event.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const cover: MediaItem = {
  id: '11111111-1111-4111-8111-111111111111',
  url: '/uploads/demo/cover-01.jpg',
  kind: 'image',
  contentType: 'image/jpeg',
  fileSize: 40_000,
  width: 1200,
  height: 675,
  alt: '淡い地に並ぶアーチ形',
  filename: 'cover-01.jpg',
  uploadedAt: '2026-11-20T03:00:00.000Z',
};
const episode: MediaItem = {
  ...cover,
  id: '22222222-2222-4222-8222-222222222222',
  url: '/media/protected/demo/audio-01.mp3',
  kind: 'audio',
  contentType: 'audio/mpeg',
  fileSize: 226_368,
  width: null,
  height: null,
  alt: '',
  filename: 'audio-01.mp3',
};

/** A file stored under a random name, uploaded as cover.png. */
const hashed: MediaItem = {
  ...cover,
  id: '44444444-4444-4444-8444-444444444444',
  url: '/uploads/images/2026/11/8adf3b0c9e1d4f2a8b7c6d5e4f3a2b1c.png',
  alt: '展示会場の入口',
  filename: 'cover.png',
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn((input: string) => {
    const url = new URL(input, 'http://localhost');
    const kind = url.searchParams.get('kind');
    const byUrl = url.searchParams.get('url');
    const items = [cover, episode, hashed].filter((i) =>
      byUrl ? i.url === byUrl : i.kind === kind && i !== hashed,
    );
    const answer: MediaListAnswer = { ok: true, items, total: items.length, page: 1, pageCount: 1 };
    return Promise.resolve(new Response(JSON.stringify(answer), { status: 200 }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness({
  kind,
  initial = null,
  onSubmit = () => {},
}: {
  kind: 'image' | 'audio';
  initial?: MediaValue | FileValue | null;
  onSubmit?: () => void;
}) {
  const [value, setValue] = useState<MediaValue | FileValue | null>(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <span id="field-label">カバー画像</span>
      <MediaPicker
        id="field"
        kind={kind}
        value={value}
        onChange={setValue}
        labelledBy="field-label"
      />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </form>
  );
}

const valueShown = () => JSON.parse(screen.getByTestId('value').textContent ?? 'null') as unknown;

/** Opens the image picker, types the alt text and uploads a PNG of that name and size. */
async function uploadImage(
  user: ReturnType<typeof userEvent.setup>,
  alt: string,
  name: string,
  size: number,
) {
  render(<Harness kind="image" />);
  await user.click(screen.getByRole('button', { name: '選択 カバー画像' }));
  const dialog = screen.getByRole('dialog', { name: '画像を選ぶ' });
  await user.type(within(dialog).getByLabelText('代替テキスト（画像は必須）'), alt);
  const file = new File([new Uint8Array(size)], name, { type: 'image/png' });
  await user.upload(within(dialog).getByLabelText('ファイル（画像）'), file);
  await user.click(within(dialog).getByRole('button', { name: 'アップロード' }));
  return dialog;
}

describe('MediaPicker', () => {
  it('opens a labelled dialog on the library of its kind and picks an image with its size and alt', async () => {
    const user = userEvent.setup();
    render(<Harness kind="image" />);
    expect(screen.getByText('画像は選ばれていません。')).toBeInTheDocument();

    const opener = screen.getByRole('button', { name: '選択 カバー画像' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: '画像を選ぶ' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByLabelText('ファイル名・代替テキストで検索')).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringContaining('kind=image'),
      expect.anything(),
    );

    await user.click(await within(dialog).findByRole('button', { name: /cover-01\.jpg/ }));
    expect(valueShown()).toEqual({
      url: cover.url,
      width: 1200,
      height: 675,
      alt: '淡い地に並ぶアーチ形',
    });
    expect(dialog).not.toHaveAttribute('open');
    // Focus is back on the field's button, which now offers a change.
    expect(screen.getByRole('button', { name: '変更 カバー画像' })).toHaveFocus();
    expect(screen.getByText('選択中：cover-01.jpg')).toBeInTheDocument();
  });

  it('gives a sound file its size, and 削除 empties the field', async () => {
    const user = userEvent.setup();
    render(<Harness kind="audio" />);
    await user.click(screen.getByRole('button', { name: '選択 カバー画像' }));
    const dialog = screen.getByRole('dialog', { name: '音声ファイルを選ぶ' });
    await user.click(await within(dialog).findByRole('button', { name: /audio-01\.mp3/ }));
    expect(valueShown()).toEqual({ url: episode.url, fileSize: 226_368 });

    await user.click(screen.getByRole('button', { name: '削除 カバー画像' }));
    expect(valueShown()).toBeNull();
  });

  it('searches on Enter without submitting the editor’s form, and says when nothing matches', async () => {
    const user = userEvent.setup();
    const submitted = vi.fn();
    render(<Harness kind="image" onSubmit={submitted} />);
    await user.click(screen.getByRole('button', { name: '選択 カバー画像' }));
    const nothing: MediaListAnswer = { ok: true, items: [], total: 0, page: 1, pageCount: 1 };
    fetchMock.mockReturnValueOnce(
      Promise.resolve(new Response(JSON.stringify(nothing), { status: 200 })),
    );
    await user.type(screen.getByLabelText('ファイル名・代替テキストで検索'), '屋上{Enter}');
    await waitFor(() =>
      expect(fetchMock).toHaveBeenLastCalledWith(
        expect.stringContaining(`q=${encodeURIComponent('屋上')}`),
        expect.anything(),
      ),
    );
    expect(await screen.findByText('「屋上」に一致する画像はありません。')).toBeInTheDocument();
    expect(submitted).not.toHaveBeenCalled();
  });

  it('closes with 閉じる and keeps the value', async () => {
    const user = userEvent.setup();
    const initial = { url: cover.url, width: 1200, height: 675, alt: 'x' };
    render(<Harness kind="image" initial={initial} />);
    const opener = screen.getByRole('button', { name: '変更 カバー画像' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    expect(valueShown()).toEqual(initial);
  });

  it('asks for alt text before uploading an image, and sends nothing without it', async () => {
    const user = userEvent.setup();
    render(<Harness kind="image" />);
    await user.click(screen.getByRole('button', { name: '選択 カバー画像' }));
    const dialog = screen.getByRole('dialog', { name: '画像を選ぶ' });
    const file = new File([new Uint8Array([1, 2, 3])], 'photo.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('ファイル（画像）'), file);
    expect(
      within(dialog).getByText('画像です。アップロードの前に代替テキストを入力してください。'),
    ).toBeInTheDocument();
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, 'open');
    await user.click(within(dialog).getByRole('button', { name: 'アップロード' }));
    const alt = within(dialog).getByLabelText('代替テキスト（画像は必須）');
    await waitFor(() => expect(alt).toHaveFocus());
    expect(alt).toHaveAttribute('aria-invalid', 'true');
    expect(xhrOpen).not.toHaveBeenCalled();
    xhrOpen.mockRestore();
  });

  it('shows the upload’s progress and picks the uploaded file', async () => {
    const sent: FakeXhr[] = [];
    class FakeXhr {
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onabort: (() => void) | null = null;
      onerror: (() => void) | null = null;
      status = 0;
      responseText = '';
      url = '';
      body: FormData | null = null;
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      send(body: FormData) {
        this.body = body;
        sent.push(this);
      }
      abort() {
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const user = userEvent.setup();
    const dialog = await uploadImage(user, '新しい表紙', 'new.png', 2048);

    expect(sent).toHaveLength(1);
    const xhr = sent[0]!;
    expect(xhr.url).toBe('/api/admin/media');
    // The fields come before the file: the server reads them first.
    expect([...xhr.body!.keys()]).toEqual(['formKey', 'alt', 'kind', 'file']);
    expect(xhr.body!.get('kind')).toBe('image');

    act(() =>
      xhr.upload.onprogress?.({
        lengthComputable: true,
        loaded: 1024,
        total: 2048,
      } as ProgressEvent),
    );
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('value', '50');
    expect(within(dialog).getByText(/アップロード中… 50%/)).toBeInTheDocument();

    const uploaded: MediaItem = {
      ...cover,
      id: '33333333-3333-4333-8333-333333333333',
      url: '/uploads/images/2026/11/new.png',
      width: 3,
      height: 2,
      alt: '新しい表紙',
    };
    act(() => {
      xhr.status = 201;
      xhr.responseText = JSON.stringify({ ok: true, media: uploaded, message: 'ok' });
      xhr.onload?.();
    });
    await waitFor(() =>
      expect(valueShown()).toEqual({ url: uploaded.url, width: 3, height: 2, alt: '新しい表紙' }),
    );
    expect(dialog).not.toHaveAttribute('open');
  });

  it('names the chosen file by the name it was uploaded with, not its stored name', async () => {
    render(
      <Harness kind="image" initial={{ url: hashed.url, width: 3, height: 2, alt: '入口' }} />,
    );
    expect(await screen.findByText('選択中：cover.png')).toBeInTheDocument();
    expect(screen.getByText('代替テキスト：入口')).toBeInTheDocument();
    expect(screen.queryByText(/選択中：8adf3b/)).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringContaining(`url=${encodeURIComponent(hashed.url)}`),
      expect.anything(),
    );
  });

  it('offers the file the library already has, or uploads a copy when asked', async () => {
    const sent: {
      body: FormData;
      onload: (() => void) | null;
      status: number;
      responseText: string;
    }[] = [];
    class FakeXhr {
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      status = 0;
      responseText = '';
      body: FormData | null = null;
      open() {}
      setRequestHeader() {}
      send(body: FormData) {
        this.body = body;
        sent.push(this as never);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const user = userEvent.setup();
    const dialog = await uploadImage(user, '表紙', 'cover-copy.png', 10);
    const answerDuplicate = (xhr: (typeof sent)[number]) =>
      act(() => {
        xhr.status = 409;
        xhr.responseText = JSON.stringify({
          ok: false,
          message: '同じ内容のファイルが「cover.png」としてライブラリにあります。',
          duplicate: hashed,
        });
        xhr.onload?.();
      });
    answerDuplicate(sent[0]!);

    const offer = await within(dialog).findByRole('group', { name: /同じ内容のファイル/ });
    expect(offer).toHaveTextContent('cover.png');
    expect(offer).toHaveTextContent('展示会場の入口');
    // Upload anyway: the same file again, asking the server to keep both.
    await user.click(within(offer).getByRole('button', { name: '同じ内容でもアップロードする' }));
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.get('duplicate')).toBe('keep');
    expect([...sent[1]!.body.keys()].at(-1)).toBe('file');

    answerDuplicate(sent[1]!);
    const again = await within(dialog).findByRole('group', { name: /同じ内容のファイル/ });
    await user.click(within(again).getByRole('button', { name: 'このファイルを使う' }));
    expect(valueShown()).toEqual({
      url: hashed.url,
      width: 1200,
      height: 675,
      alt: '展示会場の入口',
    });
    expect(dialog).not.toHaveAttribute('open');
  });

  it('shows the server’s refusal beside the file field', async () => {
    const sent: { onload: (() => void) | null; status: number; responseText: string }[] = [];
    class FakeXhr {
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      status = 0;
      responseText = '';
      open() {}
      setRequestHeader() {}
      send() {
        sent.push(this);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const user = userEvent.setup();
    render(<Harness kind="audio" />);
    await user.click(screen.getByRole('button', { name: '選択 カバー画像' }));
    const dialog = screen.getByRole('dialog', { name: '音声ファイルを選ぶ' });
    const file = new File([new Uint8Array(10)], 'talk.mp3', { type: 'audio/mpeg' });
    await user.upload(within(dialog).getByLabelText('ファイル（音声）'), file);
    await user.click(within(dialog).getByRole('button', { name: 'アップロード' }));
    const message = '対応していないファイル形式です (検出された形式: テキスト)。';
    act(() => {
      sent[0]!.status = 400;
      sent[0]!.responseText = JSON.stringify({
        ok: false,
        message: '入力内容を確認してください。',
        fieldErrors: { file: message },
      });
      sent[0]!.onload?.();
    });
    const input = within(dialog).getByLabelText('ファイル（音声）');
    await waitFor(() => expect(input).toHaveFocus());
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText(message)).toBeInTheDocument();
    expect(valueShown()).toBeNull();
  });

  it('opens at once for the rich-text editor and tells when it was closed without a choice', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const onCancel = vi.fn();
    const dialogOnly = () =>
      render(
        <MediaPicker
          id="body-image"
          kind="image"
          value={null}
          onChange={onChange}
          labelledBy="none"
          dialogOnly
          onCancel={onCancel}
        />,
      );
    const { unmount } = dialogOnly();
    const dialog = screen.getByRole('dialog', { name: '画像を選ぶ' });
    expect(dialog).toHaveAttribute('open');
    expect(screen.queryByRole('button', { name: /選択/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: '閉じる' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onChange).not.toHaveBeenCalled();
    unmount();

    dialogOnly();
    await user.click(await screen.findByRole('button', { name: /cover-01\.jpg/ }));
    expect(onChange).toHaveBeenCalledWith({
      url: cover.url,
      width: 1200,
      height: 675,
      alt: cover.alt,
    });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
