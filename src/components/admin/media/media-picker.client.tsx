'use client';

import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import userStyles from '@/components/admin/users/users.module.css';
import type { FileValue, MediaValue } from '@/lib/admin-content';
import {
  MEDIA_KIND_LABELS,
  type MediaErrorAnswer,
  type MediaItem,
  type MediaListAnswer,
  displayName,
  formatDimensions,
  formatFileSize,
  mediaPaths,
} from '@/lib/media/media-shared';
import { MediaThumb } from './media-thumb';
import { MediaUpload } from './media-upload.client';
import styles from './media.module.css';

/**
 * A media or file field of the content editor (and the rich-text editor's image button): the
 * current file with 選択/変更 and 削除, and a dialog (native <dialog>, modal) that lists the
 * library filtered by the field's kind, with search, paging and an upload whose file is
 * picked at once. Rendered inside the editor's form: every button is type="button" and Enter
 * in its inputs never submits that form.
 */

export type MediaPickerProps = {
  id: string;
  kind: 'image' | 'audio' | 'video';
  value: MediaValue | FileValue | null;
  onChange: (value: MediaValue | FileValue | null) => void;
  /** The field's label element: with the button's own text it names the button. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  /** Opens the dialog at once and hides the field's summary (the rich-text image button). */
  dialogOnly?: boolean;
  /** dialogOnly: called when the dialog closes without a choice. */
  onCancel?: () => void;
};

type ListState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; answer: MediaListAnswer };

/** The field value a library file becomes: an image with its size and alt, a file with its size. */
export function valueOf(item: MediaItem): MediaValue | FileValue {
  if (item.kind !== 'image') return { url: item.url, fileSize: item.fileSize };
  return {
    url: item.url,
    ...(item.width && item.height ? { width: item.width, height: item.height } : {}),
    alt: item.alt,
  };
}

/**
 * The library's row of a field's current file, for the name it was uploaded with (content
 * stores only the address, whose name is random). Null while unknown: the address's own name
 * shows meanwhile, and for a file not in the library.
 */
function useLibraryItem(url: string | undefined, known: MediaItem | null): MediaItem | null {
  const [found, setFound] = useState<MediaItem | null>(null);
  const wanted = url && known?.url !== url ? url : null;
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetch(`${mediaPaths.api}?${new URLSearchParams({ url: wanted }).toString()}`, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
    })
      .then(async (response) => {
        const body = (await response.json()) as MediaListAnswer | MediaErrorAnswer;
        if (body.ok) setFound(body.items.find((item) => item.url === wanted) ?? null);
      })
      .catch(() => {
        /* the stored name shows instead */
      });
    return () => controller.abort();
  }, [wanted]);
  if (!url) return null;
  if (known?.url === url) return known;
  return found?.url === url ? found : null;
}

const TITLES = { image: '画像を選ぶ', audio: '音声ファイルを選ぶ', video: '動画ファイルを選ぶ' };

function CurrentValue({
  id,
  kind,
  value,
  item,
}: {
  id: string;
  kind: MediaPickerProps['kind'];
  value: MediaValue | FileValue | null;
  item: MediaItem | null;
}) {
  if (!value) {
    return (
      <p id={id} className={userStyles.muted}>
        {MEDIA_KIND_LABELS[kind]}は選ばれていません。
      </p>
    );
  }
  const image = kind === 'image' ? (value as MediaValue) : null;
  const size = !image && 'fileSize' in value && value.fileSize ? value.fileSize : null;
  return (
    <div id={id} className={styles.current}>
      <MediaThumb url={value.url} kind={kind} small />
      <div className={styles.currentText}>
        <span>選択中：{displayName(item ?? { filename: '', url: value.url })}</span>
        {image ? (
          <span className={userStyles.muted}>
            {image.alt ? `代替テキスト：${image.alt}` : '代替テキストなし'}
          </span>
        ) : null}
        {size ? <span className={userStyles.muted}>{formatFileSize(size)}</span> : null}
      </div>
    </div>
  );
}

export function MediaPicker(props: MediaPickerProps) {
  const { id, kind, value, onChange, labelledBy, describedBy, invalid, dialogOnly, onCancel } =
    props;
  const uid = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const chosenRef = useRef(false);
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [query, setQuery] = useState({ q: '', page: 1 });
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [chosen, setChosen] = useState<MediaItem | null>(null);
  const currentItem = useLibraryItem(dialogOnly ? undefined : value?.url, chosen);
  const ids = {
    current: `${uid}-current`,
    action: `${uid}-action`,
    title: `${uid}-title`,
    search: `${uid}-search`,
    status: `${uid}-status`,
  };

  const openDialog = useCallback(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    returnFocusRef.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    chosenRef.current = false;
    dialog.showModal();
    setOpen(true);
  }, []);

  // The dialog's content mounts with it: focus its search field then.
  useEffect(() => {
    if (open) searchRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (dialogOnly) openDialog();
  }, [dialogOnly, openDialog]);

  // Load the page of the list asked for while the dialog is open.
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const params = new URLSearchParams({ kind, page: String(query.page) });
    if (query.q) params.set('q', query.q);
    setList({ status: 'loading' });
    fetch(`${mediaPaths.api}?${params.toString()}`, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
    })
      .then(async (response) => {
        const body = (await response.json()) as MediaListAnswer | MediaErrorAnswer;
        if (!body.ok) throw new Error(body.message ?? '一覧を読み込めませんでした。');
        setList({ status: 'ready', answer: body });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setList({
          status: 'error',
          message:
            error instanceof Error && error.message !== 'Failed to fetch'
              ? error.message
              : '一覧を読み込めませんでした。接続を確かめて、もう一度お試しください。',
        });
      });
    return () => controller.abort();
  }, [open, kind, query]);

  function close() {
    dialogRef.current?.close();
  }

  /** The dialog closed (Esc, 閉じる, or a choice): focus goes back where it was. */
  function onClosed() {
    setOpen(false);
    if (dialogOnly && !chosenRef.current) onCancel?.();
    const back = returnFocusRef.current ?? openerRef.current;
    if (back?.isConnected) back.focus();
    else openerRef.current?.focus();
  }

  function choose(item: MediaItem) {
    chosenRef.current = true;
    setChosen(item);
    onChange(valueOf(item));
    close();
  }

  function search() {
    setQuery({ q: q.trim(), page: 1 });
  }

  const answer = list.status === 'ready' ? list.answer : null;
  const statusText =
    list.status === 'loading'
      ? '読み込み中…'
      : answer
        ? answer.total === 0
          ? query.q
            ? `「${query.q}」に一致する${MEDIA_KIND_LABELS[kind]}はありません。`
            : `${MEDIA_KIND_LABELS[kind]}はまだありません。下からアップロードしてください。`
          : `${answer.total}件中 ${answer.page} / ${answer.pageCount} ページ`
        : '';

  return (
    <div className={styles.picker}>
      {dialogOnly ? null : (
        <>
          <CurrentValue id={ids.current} kind={kind} value={value} item={currentItem} />
          <div className={styles.pickerActions}>
            <Button
              ref={openerRef}
              id={id}
              type="button"
              color="white"
              width="auto"
              height={40}
              aria-labelledby={`${ids.action} ${labelledBy}`}
              aria-describedby={[ids.current, describedBy].filter(Boolean).join(' ')}
              aria-invalid={invalid || undefined}
              aria-haspopup="dialog"
              onClick={openDialog}
            >
              <span id={ids.action}>{value ? '変更' : '選択'}</span>
            </Button>
            {value ? (
              <Button
                type="button"
                color="white"
                width="auto"
                height={40}
                aria-labelledby={`${ids.action}-remove ${labelledBy}`}
                onClick={() => {
                  onChange(null);
                  requestAnimationFrame(() => openerRef.current?.focus());
                }}
              >
                <span id={`${ids.action}-remove`}>削除</span>
              </Button>
            ) : null}
          </div>
        </>
      )}
      <dialog
        ref={dialogRef}
        className={styles.dialog}
        aria-labelledby={ids.title}
        onClose={onClosed}
      >
        {open ? (
          <div className={styles.dialogInner}>
            <div className={styles.dialogHeader}>
              <h2 id={ids.title} className={styles.dialogTitle}>
                {TITLES[kind]}
              </h2>
              <Button type="button" color="white" width="auto" height={40} onClick={close}>
                閉じる
              </Button>
            </div>
            <div className={userStyles.search} role="search">
              <div className={userStyles.searchField}>
                <label htmlFor={ids.search} className={userStyles.label}>
                  ファイル名・代替テキストで検索
                </label>
                <input
                  ref={searchRef}
                  id={ids.search}
                  type="search"
                  value={q}
                  maxLength={100}
                  autoComplete="off"
                  className={userStyles.input}
                  onChange={(event) => setQ(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
                      event.preventDefault();
                      search();
                    }
                  }}
                />
              </div>
              <Button type="button" color="black" width="auto" height={44} onClick={search}>
                検索
              </Button>
            </div>
            <p id={ids.status} role="status" className={styles.status}>
              {statusText}
            </p>
            {list.status === 'error' ? (
              <p role="alert" className={userStyles.alert}>
                {list.message}
              </p>
            ) : null}
            {answer && answer.items.length > 0 ? (
              <ul className={styles.options} aria-label={`${MEDIA_KIND_LABELS[kind]}の一覧`}>
                {answer.items.map((item) => {
                  const selected = item.url === value?.url;
                  const facts = [formatFileSize(item.fileSize), formatDimensions(item)].filter(
                    Boolean,
                  );
                  return (
                    <li key={item.id}>
                      <button
                        type="button"
                        className={styles.option}
                        aria-pressed={selected}
                        onClick={() => choose(item)}
                      >
                        <MediaThumb url={item.url} kind={item.kind} />
                        <span className={styles.cardBody}>
                          <strong className={styles.cardTitle}>{displayName(item)}</strong>
                          <span className={styles.details}>{facts.join('・')}</span>
                          {item.alt ? <span className={styles.alt}>{item.alt}</span> : null}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
            {answer && answer.pageCount > 1 ? (
              <div className={styles.pager}>
                <Button
                  type="button"
                  color="white"
                  width="auto"
                  height={40}
                  disabled={answer.page <= 1}
                  onClick={() => setQuery((current) => ({ ...current, page: answer.page - 1 }))}
                >
                  前のページ
                </Button>
                <Button
                  type="button"
                  color="white"
                  width="auto"
                  height={40}
                  disabled={answer.page >= answer.pageCount}
                  onClick={() => setQuery((current) => ({ ...current, page: answer.page + 1 }))}
                >
                  次のページ
                </Button>
              </div>
            ) : null}
            <h3 className={styles.subTitle}>新しくアップロードして選ぶ</h3>
            <MediaUpload
              mode="embedded"
              idPrefix={`${uid}-upload`}
              kind={kind}
              onUploaded={choose}
            />
          </div>
        ) : null}
      </dialog>
    </div>
  );
}
