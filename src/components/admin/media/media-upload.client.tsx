'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type DragEvent, type FormEvent, type ReactNode, useRef, useState } from 'react';
import { FORM_KEY } from '@/lib/http/form-flash';
import { Button } from '@/components/ui/button';
import userStyles from '@/components/admin/users/users.module.css';
import {
  ACCEPT_ALL,
  ACCEPT_BY_KIND,
  ALT_MAX_LENGTH,
  ALT_REQUIRED_MESSAGE,
  KEEP_DUPLICATE,
  MEDIA_KIND_LABELS,
  type MediaErrorAnswer,
  type MediaItem,
  type MediaKind,
  type MediaUploadAnswer,
  displayName,
  formatFileSize,
  looksLikeImage,
  mediaPaths,
} from '@/lib/media/media-shared';
import { MediaThumb } from './media-thumb';
import styles from './media.module.css';

/**
 * Uploading into the media library, by drag and drop or the file input. In `form` mode it is
 * a real multipart form posting to the API, so it works without JavaScript (alt text before
 * the file: the server reads the fields in order, the file last). With JavaScript the file is
 * sent with XMLHttpRequest for its upload progress, an image is not sent without alt text,
 * and errors appear beside their fields. `embedded` mode (inside the picker, itself inside the
 * content editor's form) renders no <form> of its own.
 */

export type UploadErrors = { message: string | null; fieldErrors: Record<string, string> };

export type MediaUploadProps = {
  mode: 'form' | 'embedded';
  /** Prefix of the element ids (two uploaders may share a page). */
  idPrefix: string;
  /** Only this kind is accepted (the picker of a field). */
  kind?: MediaKind;
  /** After a plain post that failed (the one-time message). */
  initialAlt?: string;
  initialErrors?: UploadErrors | null;
  /** Embedded mode: what to do with the new file. Form mode: the page's list is refreshed. */
  onUploaded?: (media: MediaItem) => void;
};

const NETWORK_ERROR = '通信できませんでした。接続を確かめて、もう一度お試しください。';
const NO_FILE = 'アップロードするファイルを選んでください。';
const ALT_PROMPT = '画像です。アップロードの前に代替テキストを入力してください。';

type Progress = { loaded: number; total: number };
type Sent = { status: number; body: MediaUploadAnswer | MediaErrorAnswer | null };

/** XHR rather than fetch: fetch reports no upload progress. */
function send(
  body: FormData,
  onProgress: (progress: Progress) => void,
  keep: (xhr: XMLHttpRequest) => void,
): Promise<Sent | 'aborted'> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    keep(xhr);
    xhr.open('POST', mediaPaths.api);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      let parsed: Sent['body'] = null;
      try {
        parsed = JSON.parse(xhr.responseText) as Sent['body'];
      } catch {
        /* not JSON: a proxy's error page */
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onabort = () => resolve('aborted');
    xhr.onerror = () => reject(new Error('network'));
    xhr.send(body);
  });
}

function Wrapper({
  mode,
  onSubmit,
  children,
}: {
  mode: MediaUploadProps['mode'];
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  if (mode === 'embedded') return <div className={styles.upload}>{children}</div>;
  return (
    <form
      method="post"
      action={mediaPaths.api}
      encType="multipart/form-data"
      noValidate
      className={styles.upload}
      onSubmit={onSubmit}
    >
      {children}
    </form>
  );
}

export function MediaUpload({
  mode,
  idPrefix,
  kind,
  initialAlt = '',
  initialErrors,
  onUploaded,
}: MediaUploadProps) {
  const router = useRouter();
  const [alt, setAlt] = useState(initialAlt);
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [errors, setErrors] = useState<UploadErrors>(
    initialErrors ?? { message: null, fieldErrors: {} },
  );
  const [prompt, setPrompt] = useState('');
  const [progress, setProgress] = useState<Progress | null>(null);
  const [done, setDone] = useState<{ message: string; id: string } | null>(null);
  // The library has these bytes already: the editor uses that file or uploads a copy.
  const [duplicate, setDuplicate] = useState<{ message: string; media: MediaItem } | null>(null);
  const duplicateRef = useRef<HTMLDivElement>(null);
  const keepRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const altRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const xhrRef = useRef<XMLHttpRequest | null>(null);

  const ids = {
    alt: `${idPrefix}-alt`,
    altHint: `${idPrefix}-alt-hint`,
    altError: `${idPrefix}-alt-error`,
    file: `${idPrefix}-file`,
    fileHint: `${idPrefix}-file-hint`,
    fileError: `${idPrefix}-file-error`,
    progress: `${idPrefix}-progress`,
    duplicate: `${idPrefix}-duplicate`,
  };
  const busy = progress !== null;
  const altError = errors.fieldErrors.alt;
  const fileError = errors.fieldErrors.file;
  const kindName = kind ? MEDIA_KIND_LABELS[kind] : '画像・音声・動画';
  const imageExpected = kind === undefined || kind === 'image';

  function choose(next: File | null, fromDrop: boolean) {
    setFile(next);
    setDone(null);
    setDuplicate(null);
    setErrors({ message: null, fieldErrors: {} });
    const needsAlt = !!next && looksLikeImage(next) && !alt.trim();
    setPrompt(needsAlt ? ALT_PROMPT : '');
    if (needsAlt && fromDrop) altRef.current?.focus();
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    if (busy) return;
    const dropped = event.dataTransfer.files;
    const first = dropped[0] ?? null;
    if (!first) return;
    // The file input holds it too, so a plain submit would send it as well.
    try {
      if (fileRef.current && dropped.length === 1) fileRef.current.files = dropped;
    } catch {
      /* some browsers keep the input read-only: the state holds the file */
    }
    choose(first, true);
  }

  function fail(fieldErrors: Record<string, string>, message: string | null) {
    setErrors({ message, fieldErrors });
    requestAnimationFrame(() => {
      if (fieldErrors.alt) altRef.current?.focus();
      else if (fieldErrors.file) fileRef.current?.focus();
      else messageRef.current?.focus();
    });
  }

  async function upload(keepDuplicate = false) {
    if (busy) return;
    const chosen = file ?? fileRef.current?.files?.[0] ?? null;
    if (!chosen) return fail({ file: NO_FILE }, null);
    if (looksLikeImage(chosen) && !alt.trim()) return fail({ alt: ALT_REQUIRED_MESSAGE }, null);
    setErrors({ message: null, fieldErrors: {} });
    setPrompt('');
    setDone(null);
    setDuplicate(null);
    const body = new FormData();
    // Fields before the file: the server reads them first and stops at the file.
    body.append(FORM_KEY, 'upload');
    body.append('alt', alt);
    if (kind) body.append('kind', kind);
    if (keepDuplicate || keepRef.current?.checked)
      body.append(KEEP_DUPLICATE.name, KEEP_DUPLICATE.value);
    body.append('file', chosen, chosen.name);
    setProgress({ loaded: 0, total: chosen.size });
    let sent: Sent | 'aborted';
    try {
      sent = await send(body, setProgress, (xhr) => (xhrRef.current = xhr));
    } catch {
      sent = { status: 0, body: null };
    } finally {
      xhrRef.current = null;
      setProgress(null);
    }
    if (sent === 'aborted') {
      setErrors({ message: 'アップロードを中止しました。', fieldErrors: {} });
      return;
    }
    const answer = sent.body;
    if (answer && !answer.ok && answer.duplicate) {
      setDuplicate({ message: answer.message ?? '', media: answer.duplicate });
      requestAnimationFrame(() => duplicateRef.current?.focus());
      return;
    }
    if (!answer || !answer.ok) {
      const fieldErrors = answer?.fieldErrors ?? {};
      return fail(fieldErrors, answer?.message ?? NETWORK_ERROR);
    }
    setFile(null);
    setAlt('');
    if (fileRef.current) fileRef.current.value = '';
    if (onUploaded) {
      onUploaded(answer.media);
      return;
    }
    setDone({ message: answer.message, id: answer.media.id });
    router.refresh();
  }

  const percent =
    progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <Wrapper
      mode={mode}
      onSubmit={(event) => {
        event.preventDefault();
        void upload();
      }}
    >
      {mode === 'form' ? <input type="hidden" name={FORM_KEY} value="upload" /> : null}
      {errors.message ? (
        <p ref={messageRef} role="alert" tabIndex={-1} className={userStyles.alert}>
          {errors.message}
        </p>
      ) : null}
      {duplicate ? (
        <div
          ref={duplicateRef}
          role="group"
          tabIndex={-1}
          aria-labelledby={ids.duplicate}
          className={styles.duplicate}
        >
          <p id={ids.duplicate} className={userStyles.alert}>
            {duplicate.message}
            新しく追加せずにそのファイルを使うか、同じ内容のファイルをもう1つアップロードするかを選んでください。
          </p>
          <div className={styles.current}>
            <MediaThumb url={duplicate.media.url} kind={duplicate.media.kind} small />
            <div className={styles.currentText}>
              <span>{displayName(duplicate.media)}</span>
              <span className={userStyles.muted}>
                {duplicate.media.alt ? `代替テキスト：${duplicate.media.alt}` : '代替テキストなし'}
              </span>
            </div>
          </div>
          <div className={userStyles.actions}>
            {onUploaded ? (
              <Button
                type="button"
                color="black"
                width="auto"
                height={44}
                onClick={() => {
                  const media = duplicate.media;
                  setDuplicate(null);
                  setFile(null);
                  setAlt('');
                  if (fileRef.current) fileRef.current.value = '';
                  onUploaded(media);
                }}
              >
                このファイルを使う
              </Button>
            ) : (
              <Link href={mediaPaths.item(duplicate.media.id)}>ライブラリのファイルを開く</Link>
            )}
            <Button
              type="button"
              color="white"
              width="auto"
              height={44}
              onClick={() => void upload(true)}
            >
              同じ内容でもアップロードする
            </Button>
          </div>
        </div>
      ) : null}
      {mode === 'form' && errors.fieldErrors[KEEP_DUPLICATE.name] ? (
        <div className={userStyles.field}>
          <p className={userStyles.fieldError}>{errors.fieldErrors[KEEP_DUPLICATE.name]}</p>
          <label className={styles.keepDuplicate}>
            <input
              ref={keepRef}
              type="checkbox"
              name={KEEP_DUPLICATE.name}
              value={KEEP_DUPLICATE.value}
            />{' '}
            同じ内容でもアップロードする
          </label>
        </div>
      ) : null}
      {done ? (
        <p role="status" className={userStyles.notice}>
          {done.message} <Link href={mediaPaths.item(done.id)}>ファイルのページを開く</Link>
        </p>
      ) : null}
      <div className={userStyles.field}>
        <label htmlFor={ids.alt} className={userStyles.label}>
          代替テキスト{imageExpected ? '（画像は必須）' : ''}
        </label>
        <p id={ids.altHint} className={userStyles.hint}>
          画像が見えない人に向けて、何が写っているかを短く書きます（{ALT_MAX_LENGTH}
          文字まで）。音声・動画では空欄でもかまいません。
        </p>
        <input
          ref={altRef}
          id={ids.alt}
          name="alt"
          type="text"
          value={alt}
          maxLength={ALT_MAX_LENGTH}
          autoComplete="off"
          className={userStyles.input}
          aria-invalid={altError ? true : undefined}
          aria-describedby={[ids.altHint, altError || prompt ? ids.altError : null]
            .filter(Boolean)
            .join(' ')}
          onChange={(event) => {
            setAlt(event.target.value);
            if (event.target.value.trim()) setPrompt('');
          }}
          onKeyDown={(event) => {
            // Inside another form, Enter would submit that form instead.
            if (mode === 'embedded' && event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void upload();
            }
          }}
        />
        <p
          id={ids.altError}
          className={altError ? userStyles.fieldError : userStyles.hint}
          aria-live="polite"
        >
          {altError ?? prompt}
        </p>
      </div>
      <div
        className={styles.dropZone}
        data-over={over}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <label htmlFor={ids.file} className={userStyles.label}>
          ファイル（{kindName}）
        </label>
        <p id={ids.fileHint} className={userStyles.hint}>
          ここにファイルをドラッグ＆ドロップするか、「ファイルを選択」から選んでください。画像は
          JPEG・PNG・WebP・GIF・AVIF（10 MB まで）、音声は MP3・M4A・WAV・OGG（200 MB まで）、動画は
          MP4・WebM（500 MB まで）です。
        </p>
        <input
          ref={fileRef}
          id={ids.file}
          name="file"
          type="file"
          accept={kind ? ACCEPT_BY_KIND[kind] : ACCEPT_ALL}
          disabled={busy}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={[ids.fileHint, fileError ? ids.fileError : null]
            .filter(Boolean)
            .join(' ')}
          onChange={(event) => choose(event.target.files?.[0] ?? null, false)}
        />
        {file ? (
          <p className={styles.chosen}>
            選択中：{file.name}（{formatFileSize(file.size)}）
          </p>
        ) : null}
        {fileError ? (
          <p id={ids.fileError} className={userStyles.fieldError}>
            {fileError}
          </p>
        ) : null}
      </div>
      {progress ? (
        <div className={styles.progress}>
          <label htmlFor={ids.progress}>
            アップロード中… {percent}%（{formatFileSize(progress.loaded)} /{' '}
            {formatFileSize(progress.total)}）
          </label>
          <progress id={ids.progress} max={100} value={percent} />
        </div>
      ) : null}
      <div className={userStyles.actions}>
        <Button
          type={mode === 'form' ? 'submit' : 'button'}
          color="black"
          width="auto"
          height={44}
          loading={busy}
          onClick={mode === 'embedded' ? () => void upload() : undefined}
        >
          アップロード
        </Button>
        {busy ? (
          <Button
            type="button"
            color="white"
            width="auto"
            height={44}
            onClick={() => xhrRef.current?.abort()}
          >
            中止
          </Button>
        ) : null}
      </div>
    </Wrapper>
  );
}
