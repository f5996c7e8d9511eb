'use client';

import { type ChangeEvent, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { Checkbox, Field } from '@/components/forms/form.client';
import { avatarInitial } from './avatar';
import styles from './avatar-field.module.css';

/** The picture types the server keeps as an avatar (src/server/platform/storage/media-types.ts). */
export const AVATAR_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const;

const TYPE_NAMES = 'JPEG・PNG・WebP・GIF・AVIF';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;

/** Why a chosen file will not do, checked before the upload; null when it may be sent. */
export function avatarFileProblem(
  file: { type: string; size: number },
  maxBytes: number,
): string | null {
  // An empty type (an unknown extension) is left to the server, which reads the bytes.
  if (file.type && !(AVATAR_TYPES as readonly string[]).includes(file.type))
    return `${TYPE_NAMES} の画像を選んでください。`;
  if (file.size > maxBytes)
    return `ファイルが大きすぎます。${megabytes(maxBytes)} までです（このファイル: ${megabytes(file.size)}）。`;
  return null;
}

/**
 * The avatar on /account/edit: the current picture (or the initial), a button to choose
 * another one with a preview of it before saving, and the box to remove it. The file input is
 * the form's own field (its label, hint and the server's message stay as for every field).
 * Without JavaScript it is the browser's own control, dressed; once hydrated it is hidden on
 * screen (still the focused, labelled control) behind a 「画像を選ぶ」 button in our words
 * and the chosen file's name.
 */
export function AvatarField({
  currentUrl,
  displayName,
  maxBytes,
}: {
  currentUrl: string | null;
  displayName: string;
  maxBytes: number;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const enhanced = useSyncExternalStore(subscribeToNothing, isBrowser, isServer);
  const [fileName, setFileName] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);

  // The preview's object URL lives as long as it is shown.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    const refusal = file ? avatarFileProblem(file, maxBytes) : null;
    setProblem(refusal);
    if (!file || refusal) {
      event.currentTarget.value = '';
      setPreview(null);
      setFileName(null);
      return;
    }
    setPreview(URL.createObjectURL(file));
    setFileName(file.name);
  };

  const cancel = () => {
    if (inputRef.current) {
      inputRef.current.value = '';
      inputRef.current.focus();
    }
    setPreview(null);
    setFileName(null);
    setProblem(null);
  };

  const shown = preview ?? (removing ? null : currentUrl);
  const status = preview
    ? '選んだ画像は「保存する」で反映されます。'
    : removing && currentUrl
      ? '保存すると、プロフィール画像を削除します。'
      : null;

  return (
    <div className={styles.avatarField}>
      <div className={styles.preview}>
        {shown ? (
          // eslint-disable-next-line @next/next/no-img-element -- a local preview or a small upload
          <img
            src={shown}
            alt={preview ? '選んだ画像のプレビュー' : '現在のプロフィール画像'}
            width={96}
            height={96}
            className={styles.image}
          />
        ) : (
          <span className={styles.initial} aria-hidden="true">
            {avatarInitial(displayName)}
          </span>
        )}
      </div>
      <div className={styles.controls}>
        <Field
          ref={inputRef}
          id={inputId}
          name="avatar"
          label="プロフィール画像"
          hint={`${TYPE_NAMES}、${megabytes(maxBytes)} まで。丸く切り抜いて表示します。`}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          onChange={choose}
          className={enhanced ? `${styles.file} ${styles.enhanced}` : styles.file}
        />
        {enhanced ? (
          <div className={styles.picker}>
            {/* A second label of the input: a click opens the browser's file chooser. */}
            <label htmlFor={inputId} className={styles.pick}>
              画像を選ぶ
            </label>
            <span className={styles.fileName}>{fileName ?? '選択されていません'}</span>
          </div>
        ) : null}
        {problem ? (
          <p role="alert" className={styles.problem}>
            {problem}
          </p>
        ) : null}
        <p role="status" className={styles.status}>
          {status}
        </p>
        {preview ? (
          <button type="button" className={styles.cancel} onClick={cancel}>
            選んだ画像を取り消す
          </button>
        ) : null}
        {currentUrl ? (
          <Checkbox name="removeAvatar" onChange={(event) => setRemoving(event.target.checked)}>
            プロフィール画像を削除する
          </Checkbox>
        ) : null}
      </div>
    </div>
  );
}

const subscribeToNothing = () => () => {};
const isBrowser = () => true;
const isServer = () => false;
