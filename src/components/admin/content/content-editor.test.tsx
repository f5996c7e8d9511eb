// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditorItem, SaveAnswer } from '@/lib/admin-content';
import type { EndpointDef } from '@/lib/cms/model';
import { LEAD_NOTES } from '@/lib/access/lead-rule';
import { AUTOSAVE_DELAY_MS, ContentEditor } from './content-editor.client';

// The rich-text editor and the media picker are other slices' components: stand-ins named the
// way the form names them, so these tests exercise the form alone.
vi.mock('./rich-text/rich-text-editor.client', () => ({
  RichTextEditor: (props: {
    id: string;
    labelledBy: string;
    describedBy?: string;
    initialHtml: string;
  }) => (
    <div
      id={props.id}
      role="textbox"
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      data-initial-html={props.initialHtml}
      tabIndex={0}
    />
  ),
}));
// Editing presence has its heartbeat of its own (editing-presence.client.tsx): not these fetches.
vi.mock('./editing-presence.client', () => ({ EditingPresence: () => null }));
vi.mock('@/components/admin/media/media-picker.client', () => ({
  MediaPicker: (props: { id: string; kind: string; labelledBy: string }) => (
    <button type="button" id={props.id} aria-labelledby={props.labelledBy} data-kind={props.kind}>
      選ぶ
    </button>
  ),
}));

const def: EndpointDef = {
  endpoint: 'posts',
  label: '記事',
  kind: 'list',
  fields: [
    { id: 'title', label: 'タイトル', kind: 'text', required: true, maxLength: 20 },
    { id: 'description', label: '概要', kind: 'textArea', maxLength: 100 },
    { id: 'website', label: 'ウェブサイト', kind: 'text', urlPrefixes: ['https://'] },
    { id: 'cover', label: 'カバー画像', kind: 'media' },
    { id: 'audioFile', label: '音声ファイル', kind: 'file' },
    { id: 'body', label: '本文', kind: 'richEditor' },
    { id: 'free', label: '無料公開', kind: 'boolean' },
    { id: 'format', label: '形式', kind: 'select', options: ['article', 'report'] },
    { id: 'areas', label: '地域', kind: 'select', options: ['東京都', '大阪府'], multiple: true },
    { id: 'order', label: '順番', kind: 'number', min: 0, max: 100 },
    { id: 'closing', label: '締切', kind: 'date' },
    { id: 'category', label: '特集', kind: 'relation', endpoint: 'categories' },
    { id: 'tags', label: 'タグ', kind: 'relationList', endpoint: 'tags' },
  ],
};

const item = (over: Partial<EditorItem> = {}): EditorItem => ({
  endpoint: 'posts',
  id: 'post-1',
  isNew: false,
  fields: {
    title: '展示のレポート',
    closing: '2026-11-30T15:00:00.000Z',
    category: 'c1',
    tags: ['t1', 't2'],
  },
  status: 'draft',
  updatedAt: '2026-11-24T01:00:00.000Z',
  scheduledAt: null,
  publishedAt: null,
  previewUrl: null,
  publicUrl: null,
  references: {
    categories: [{ id: 'c1', label: '素材の特集', status: 'published' }],
    tags: [
      { id: 't1', label: '展覧会', status: 'published' },
      { id: 't2', label: '書体', status: 'draft' },
    ],
  },
  ...over,
});

const answer = (over: Partial<SaveAnswer> = {}): SaveAnswer => ({
  ok: true,
  id: 'post-1',
  updatedAt: '2026-11-24T02:00:00.000Z',
  status: 'draft',
  scheduledAt: null,
  previewUrl: null,
  publicUrl: null,
  message: '保存しました。',
  ...over,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const sentBody = (call: number) =>
  JSON.parse(fetchMock.mock.calls[call]?.[1]?.body as string) as Record<string, unknown>;

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('ContentEditor', () => {
  it('says under the body what visitors see of it: above the divider, or about 300 characters', () => {
    const gated: EndpointDef = {
      ...def,
      fields: [
        { id: 'body', label: '本文', kind: 'richEditor' },
        { id: 'isPublicPreview', label: '無料公開', kind: 'boolean' },
      ],
    };
    const divided = '<p>導入。</p><hr data-members-divider=""><p>続き</p>';
    const { unmount } = render(
      <ContentEditor def={gated} item={item({ fields: { body: divided } })} />,
    );
    expect(screen.getByRole('textbox', { name: '本文' })).toHaveAccessibleDescription(
      LEAD_NOTES.divider,
    );
    expect(screen.getByText(LEAD_NOTES.divider)).toHaveTextContent(
      /^区切り線（ここから会員限定）より上が、訪問者に見える部分です。/,
    );
    unmount();
    const second = render(
      <ContentEditor def={gated} item={item({ fields: { body: '<p>導入。</p>' } })} />,
    );
    expect(screen.getByRole('textbox', { name: '本文' })).toHaveAccessibleDescription(
      /^区切り線がないため、訪問者には冒頭の約300文字（段落か文の切れ目まで）だけが見えます。/,
    );
    second.unmount();
    const open = { body: divided, isPublicPreview: true };
    render(<ContentEditor def={gated} item={item({ fields: open })} />);
    expect(screen.getByRole('textbox', { name: '本文' })).toHaveAccessibleDescription(
      LEAD_NOTES.open,
    );
  });

  it('opens 「訪問者に見える部分」: the preview as a signed-out visitor, for posts only', () => {
    const previewUrl = '/posts/post-1/preview?draftKey=key-1';
    const { unmount } = render(<ContentEditor def={def} item={item({ previewUrl })} />);
    expect(
      screen.getByRole('link', { name: /^訪問者に見える部分.*新しいタブで開きます/ }),
    ).toHaveAttribute('href', `${previewUrl}&as=visitor`);
    unmount();
    render(
      <ContentEditor
        def={{ ...def, endpoint: 'jobs', label: '求人' }}
        item={item({ endpoint: 'jobs', previewUrl: '/jobs/preview/post-1?draftKey=key-1' })}
      />,
    );
    expect(screen.queryByRole('link', { name: /訪問者に見える部分/ })).toBeNull();
  });

  it('renders one labelled control per field kind, with required marks and hints', () => {
    render(<ContentEditor def={def} item={item()} />);
    const title = screen.getByLabelText(/タイトル/);
    expect(title).toHaveAttribute('type', 'text');
    expect(title).toHaveValue('展示のレポート');
    expect(screen.getByText('必須')).toBeInTheDocument();
    // The hint counts characters as they are typed.
    expect(title).toHaveAccessibleDescription('20文字まで（現在 7文字）。');
    expect(screen.getByLabelText('概要').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('ウェブサイト')).toHaveAttribute('type', 'url');
    expect(screen.getByLabelText('ウェブサイト')).toHaveAccessibleDescription(
      'https:// で始まる URL。',
    );
    expect(screen.getByLabelText('カバー画像')).toHaveAttribute('data-kind', 'image');
    expect(screen.getByLabelText('音声ファイル')).toHaveAttribute('data-kind', 'audio');
    expect(screen.getByRole('textbox', { name: '本文' })).toBeInTheDocument();
    expect(screen.getByLabelText('無料公開')).toHaveAttribute('type', 'checkbox');
    expect(screen.getByLabelText('形式').tagName).toBe('SELECT');
    expect(screen.getByRole('option', { name: 'レポート（report）' })).toBeInTheDocument();
    const areas = screen.getByRole('group', { name: '地域' });
    expect(within(areas).getAllByRole('checkbox')).toHaveLength(2);
    const order = screen.getByLabelText('順番');
    expect(order).toHaveAttribute('type', 'number');
    expect(order).toHaveAttribute('min', '0');
    expect(order).toHaveAttribute('max', '100');
    // Dates are shown in Japan time: 15:00 UTC is midnight the next day.
    expect(screen.getByLabelText('締切')).toHaveValue('2026-12-01T00:00');
    expect(screen.getByRole('combobox', { name: '特集' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'タグ' })).toBeInTheDocument();
    // References show their labels, not their ids.
    expect(screen.getByRole('list', { name: '選択中のタグ' })).toHaveTextContent('展覧会');
    expect(screen.getByRole('button', { name: '書体を外す' })).toBeInTheDocument();
  });

  it('saves the whole form in the write shape, empties included, with the token it started from', async () => {
    fetchMock.mockResolvedValueOnce(json(200, answer()));
    render(<ContentEditor def={def} item={item()} />);
    type('締切', '2026-12-24T18:30');
    fireEvent.click(screen.getByRole('button', { name: '下書きを保存' }));
    expect(await screen.findByText(/^保存しました \(\d\d:\d\d\)$/)).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/content/posts/post-1');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
    expect(sentBody(0)).toEqual({
      fields: {
        title: '展示のレポート',
        description: '',
        website: '',
        cover: null,
        audioFile: null,
        body: '',
        free: false,
        format: [],
        areas: [],
        order: null,
        closing: '2026-12-24T09:30:00.000Z',
        category: 'c1',
        tags: ['t1', 't2'],
      },
      baseUpdatedAt: '2026-11-24T01:00:00.000Z',
    });
  });

  it('shows a 400 answer beside the fields and moves the focus to the summary', async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        ok: false,
        message: '入力内容を確認してください。',
        fieldErrors: { website: 'この URL は使えません。' },
      }),
    );
    render(<ContentEditor def={def} item={item()} />);
    type('ウェブサイト', 'ftp://example.jp');
    // A URL the form already knows is wrong never leaves the browser.
    fireEvent.click(screen.getByRole('button', { name: '下書きを保存' }));
    // The focus moves after the summary has rendered.
    await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    expect(fetchMock).not.toHaveBeenCalled();

    type('ウェブサイト', 'https://example.jp');
    screen.getByLabelText('ウェブサイト').focus();
    fireEvent.click(screen.getByRole('button', { name: '下書きを保存' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const summary = await screen.findByRole('alert');
    await vi.waitFor(() =>
      expect(within(summary).getByRole('link')).toHaveTextContent(
        'ウェブサイト: この URL は使えません。',
      ),
    );
    expect(within(summary).getByRole('link')).toHaveAttribute('href', '#field-website');
    const input = screen.getByLabelText('ウェブサイト');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('https:// で始まる URL。 この URL は使えません。');
    await vi.waitFor(() => expect(summary).toHaveFocus());
  });

  it('autosaves 5 s after the last change, and a 409 stops it with the conflict alert', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValue(
      json(409, {
        ok: false,
        message: '他の人が更新しました。',
        conflict: { by: '佐藤', updatedAt: '2026-11-24T03:04:00.000Z' },
      }),
    );
    render(<ContentEditor def={def} item={item()} />);
    type('概要', '一文目');
    expect(screen.getByText('未保存の変更があります')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100));
    type('概要', '一文目と二文目');
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sentBody(0)).toMatchObject({
      autosave: true,
      fields: { description: '一文目と二文目' },
    });

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('この項目は佐藤が2026年11月24日 12:04に更新しました。');
    expect(alert).toHaveTextContent('入力した内容は失われます');
    // An autosave leaves the focus where the editor is typing.
    expect(alert).not.toHaveFocus();

    // No more autosaves over someone else's work, however long the editor types.
    type('概要', 'さらに追記');
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 3));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // Overwriting is the editor's choice: sent from the other save's token.
    fetchMock.mockResolvedValueOnce(json(200, answer({ updatedAt: '2026-11-24T03:05:00.000Z' })));
    fireEvent.click(within(alert).getByRole('button', { name: '自分の変更で上書きする' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sentBody(1)).toMatchObject({
      baseUpdatedAt: '2026-11-24T03:04:00.000Z',
      fields: { description: 'さらに追記' },
    });
    expect(sentBody(1)).not.toHaveProperty('autosave');
    expect(screen.queryByText(/この項目は佐藤が/)).not.toBeInTheDocument();
  });

  it('asks before unload only while there are unsaved changes', async () => {
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    fetchMock.mockResolvedValueOnce(json(200, answer()));
    render(<ContentEditor def={def} item={item()} />);
    expect(unload()).toBe(false);
    fireEvent.click(screen.getByLabelText('無料公開'));
    expect(unload()).toBe(true);
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    expect(await screen.findByText(/^保存しました \(/)).toBeInTheDocument();
    expect(sentBody(0)).toMatchObject({ fields: { free: true } });
    // The listener goes in the effect after the saved state renders, which a busy machine runs later.
    await vi.waitFor(() => expect(unload()).toBe(false));
  });

  it('asks before following an in-app link while dirty, and stays when told to', () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    // Whether the editor let the link be followed; jsdom cannot navigate, so it never does.
    const followed: boolean[] = [];
    const record = (event: MouseEvent) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener('click', record);
    try {
      render(
        <>
          {/* A plain link: the console nav's next/link needs a router this test has not. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/admin/media">メディア</a>
          <a href="#field-title">タイトルへ</a>
          <ContentEditor def={def} item={item()} />
        </>,
      );
      fireEvent.click(screen.getByRole('link', { name: 'メディア' }));
      expect(confirm).not.toHaveBeenCalled();
      type('概要', '書きかけ');
      fireEvent.click(screen.getByRole('link', { name: 'タイトルへ' }));
      expect(confirm).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole('link', { name: 'メディア' }));
      expect(confirm).toHaveBeenCalledWith('保存していない変更があります。移動しますか？');
      // The refused click never reached the page's own listeners.
      expect(followed).toEqual([true, true]);
    } finally {
      document.removeEventListener('click', record);
    }
  });

  it('creates a new item with POST, then takes its address without reloading', async () => {
    const replace = vi.spyOn(window.history, 'replaceState');
    fetchMock.mockResolvedValueOnce(
      json(201, { id: 'new-1', updatedAt: '2026-11-24T05:00:00.000Z' }),
    );
    render(
      <ContentEditor def={def} item={item({ id: '', isNew: true, fields: {}, updatedAt: null })} />,
    );
    expect(screen.getByText('まだ保存されていません')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '変更履歴' })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^タイトル/), { target: { value: '新しい記事' } });
    fireEvent.submit(screen.getByRole('form', { name: '記事の編集' }));
    expect(await screen.findByRole('link', { name: '変更履歴' })).toHaveAttribute(
      'href',
      '/admin/content/posts/new-1/history',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/content/posts');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(sentBody(0)).toMatchObject({ baseUpdatedAt: null, fields: { title: '新しい記事' } });
    expect(replace).toHaveBeenCalledWith(null, '', '/admin/content/posts/new-1');
  });

  it('never autosaves an item that does not exist yet', async () => {
    vi.useFakeTimers();
    render(
      <ContentEditor def={def} item={item({ id: '', isNew: true, fields: {}, updatedAt: null })} />,
    );
    type('概要', '書き始め');
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByText('未保存の変更があります')).toBeInTheDocument();
  });

  it('checks a schedule time is in the future before asking the server', () => {
    render(<ContentEditor def={def} item={item()} />);
    fireEvent.change(screen.getByLabelText('予約公開'), { target: { value: '2020-01-01T10:00' } });
    fireEvent.click(screen.getByRole('button', { name: '予約公開する' }));
    expect(screen.getByLabelText('予約公開')).toHaveAccessibleDescription(
      '日本時間。未来の日時を指定します。 未来の日時を指定してください。',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('publishes after saving pending changes and announces the answer', async () => {
    fetchMock
      .mockResolvedValueOnce(json(200, answer({ updatedAt: '2026-11-24T02:00:00.000Z' })))
      .mockResolvedValueOnce(
        json(
          200,
          answer({
            status: 'published',
            updatedAt: '2026-11-24T02:01:00.000Z',
            publicUrl: '/posts/post-1',
            message: '公開しました。',
          }),
        ),
      );
    render(<ContentEditor def={def} item={item()} />);
    type('概要', '直した');
    fireEvent.click(screen.getByRole('button', { name: '公開する' }));
    expect(await screen.findByText('公開しました。')).toBeInTheDocument();
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/admin/content/posts/post-1/workflow');
    expect(sentBody(1)).toEqual({ action: 'publish', baseUpdatedAt: '2026-11-24T02:00:00.000Z' });
    expect(screen.getByText('公開中')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /公開ページを見る/ })).toHaveAttribute(
      'href',
      '/posts/post-1',
    );
  });
});

describe('the URL (ID) field', () => {
  const slug = {
    urlPrefix: 'https://axis.example.jp/posts/',
    suggestion: 'r5p3064t701b',
    renamable: true,
    previousIds: [],
  };

  it('shows the URL a new item gets as the slug is typed, and creates it under that id', async () => {
    fetchMock.mockResolvedValueOnce(json(201, answer({ id: 'my-slug' })));
    render(<ContentEditor def={def} item={item({ id: '', isNew: true, fields: {}, slug })} />);
    expect(screen.getByText('https://axis.example.jp/posts/r5p3064t701b')).toBeInTheDocument();
    type('URL (ID)', 'My_Slug');
    expect(screen.getByLabelText('URL (ID)')).toHaveAccessibleDescription(
      /半角の英小文字 \(a-z\)・数字・ハイフン \(-\) だけが使えます/,
    );
    type('URL (ID)', 'my-slug');
    expect(screen.getByText('https://axis.example.jp/posts/my-slug')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/タイトル/), { target: { value: '記事' } });
    fireEvent.submit(screen.getByRole('form', { name: '記事の編集' }));
    expect(await screen.findByRole('link', { name: '変更履歴' })).toHaveAttribute(
      'href',
      '/admin/content/posts/my-slug/history',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/content/posts');
    expect(sentBody(0)).toMatchObject({ id: 'my-slug' });
  });

  it('renames an existing item and says where its old URL now leads', async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, answer({ id: 'new-slug', message: 'URL を変更しました。' })),
    );
    render(<ContentEditor def={def} item={item({ slug: { ...slug, suggestion: '' } })} />);
    expect(screen.getByText('https://axis.example.jp/posts/post-1')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'URL (ID) を変更' }));
    type(
      '新しい ID (半角の英小文字・数字・ハイフンで、50 文字まで。以前の URL は新しい URL へ転送されます)',
      'new-slug',
    );
    fireEvent.click(screen.getByRole('button', { name: 'URL を変更する' }));
    expect(await screen.findByText('URL を変更しました。')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/content/posts/post-1/rename');
    expect(sentBody(0)).toEqual({ id: 'new-slug', baseUpdatedAt: '2026-11-24T01:00:00.000Z' });
    expect(screen.getByText('https://axis.example.jp/posts/new-slug')).toBeInTheDocument();
    expect(
      screen.getByText(/以前の ID \(post-1\) の URL は、ここへ転送されます/),
    ).toBeInTheDocument();
  });
});
