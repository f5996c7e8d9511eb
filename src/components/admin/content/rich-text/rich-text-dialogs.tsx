'use client';

import { type FormEvent, type ReactNode, type RefObject, useId, useRef, useState } from 'react';
import { MediaPicker } from '@/components/admin/media/media-picker.client';
import users from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal.client';
import type { FileValue, MediaValue } from '@/lib/admin-content';
import { type Embed, embedFromUrl } from '@/lib/cms/embeds';
import { isAllowedLink } from './extensions';
import { type FigureImageAttributes, isHttpUrl } from './figure-image-node';
import { PostLinkSearch, postPath } from './post-link-search';
import styles from './rich-text-editor.module.css';
import { describeControl } from '@/components/forms/describe-control';

/**
 * The editor's small dialogs (link, image, embed): each a form with its fields labelled,
 * errors in Japanese beside the field, focus on the first field and back on close.
 */

/** A dialog's form: its fields, then the submit button, any other action and キャンセル. */
function DialogFrame({
  title,
  onClose,
  returnFocus,
  onSubmit,
  initialFocus,
  submitLabel,
  moreActions,
  children,
}: {
  title: string;
  onClose: () => void;
  returnFocus?: () => void;
  onSubmit: () => void;
  initialFocus: RefObject<HTMLElement | null>;
  submitLabel: string;
  moreActions?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Modal
      open
      onClose={onClose}
      returnFocus={returnFocus}
      labelledBy={titleId}
      initialFocusRef={initialFocus}
      className={styles.dialog}
    >
      <form
        className={styles.dialogForm}
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          // The dialog is portalled out of the form it was opened from, but React still
          // bubbles the submit to it: that form must not be submitted.
          event.stopPropagation();
          onSubmit();
        }}
      >
        <h2 id={titleId} className={styles.dialogTitle}>
          {title}
        </h2>
        {children}
        <div className={styles.actions}>
          <Button type="submit" color="black" width="auto">
            {submitLabel}
          </Button>
          {moreActions}
          <Button color="gray" width="auto" onClick={onClose}>
            キャンセル
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function TextField({
  label,
  hint,
  error,
  value,
  onChange,
  inputRef,
  inputMode,
  required,
}: {
  label: string;
  hint?: string;
  error: string | null;
  value: string;
  onChange: (value: string) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
  inputMode?: 'url' | 'text';
  required?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={users.field}>
      <label htmlFor={id} className={users.label}>
        {label}
        {required ? '（必須）' : null}
      </label>
      {hint ? (
        <p id={hintId} className={users.hint}>
          {hint}
        </p>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        className={users.input}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        spellCheck={inputMode === 'url' ? false : undefined}
        value={value}
        aria-required={required || undefined}
        {...describeControl(id, { hint, error })}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A link as typed: a bare domain gets https://; anything not allowed is an error. */
export function normaliseLink(input: string): { href: string } | { error: string } {
  const value = input.trim();
  if (!value) return { error: 'URL を入力してください。' };
  if (/\s/.test(value))
    return { error: 'URL に空白が含まれています。URL だけを入力してください。' };
  const withScheme =
    /^[a-z][a-z0-9+.-]*:/i.test(value) || /^[/#?]/.test(value) ? value : `https://${value}`;
  if (/^[/\\]{2}/.test(withScheme) || !isAllowedLink(withScheme)) {
    return {
      error:
        'http:// か https:// で始まる URL、mailto: のメールアドレス、または / で始まるサイト内のパスを入力してください。',
    };
  }
  if (/^https?:\/\//i.test(withScheme)) {
    try {
      const url = new URL(withScheme);
      if (!url.hostname.includes('.') && url.hostname !== 'localhost') {
        return { error: 'URL のドメインを確かめてください（例：https://example.com/）。' };
      }
    } catch {
      return { error: 'URL の形が正しくありません。' };
    }
  }
  return { href: withScheme };
}

export type LinkChoice = { href: string; newTab: boolean };

export function LinkDialog({
  initial,
  onApply,
  onRemove,
  onClose,
  returnFocus,
}: {
  initial: LinkChoice | null;
  onApply: (link: LinkChoice) => void;
  onRemove: () => void;
  onClose: () => void;
  /** How focus goes back to the editor (DialogFrame's Modal). */
  returnFocus?: () => void;
}) {
  const [href, setHref] = useState(initial?.href ?? '');
  const [newTab, setNewTab] = useState(initial?.newTab ?? false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const checkId = useId();
  return (
    <DialogFrame
      title={initial ? 'リンクを編集' : 'リンクを挿入'}
      onClose={onClose}
      returnFocus={returnFocus}
      initialFocus={inputRef}
      submitLabel={initial ? 'リンクを更新' : 'リンクを設定'}
      moreActions={
        initial ? (
          <Button color="white" width="auto" onClick={onRemove}>
            リンクを外す
          </Button>
        ) : null
      }
      onSubmit={() => {
        const result = normaliseLink(href);
        if ('error' in result) {
          setError(result.error);
          inputRef.current?.focus();
          return;
        }
        onApply({ href: result.href, newTab });
      }}
    >
      <TextField
        label="リンク先の URL"
        hint="例：https://example.com/、/posts/記事ID、mailto:info@example.jp"
        error={error}
        value={href}
        onChange={setHref}
        inputRef={inputRef}
        inputMode="url"
        required
      />
      <PostLinkSearch
        onChoose={(post) => {
          setHref(postPath(post.id));
          setError(null);
          inputRef.current?.focus();
        }}
      />
      <div className={styles.check}>
        <input
          id={checkId}
          type="checkbox"
          checked={newTab}
          onChange={(event) => setNewTab(event.target.checked)}
        />
        <label htmlFor={checkId}>新しいタブで開く</label>
      </div>
    </DialogFrame>
  );
}

export function ImageDialog({
  initial,
  onApply,
  onClose,
  returnFocus,
}: {
  initial: FigureImageAttributes | null;
  onApply: (image: FigureImageAttributes) => void;
  onClose: () => void;
  /** How focus goes back to the editor (DialogFrame's Modal). */
  returnFocus?: () => void;
}) {
  const [picked, setPicked] = useState<MediaValue | null>(null);
  const [url, setUrl] = useState(initial?.src ?? '');
  const [alt, setAlt] = useState(initial?.alt ?? '');
  const [caption, setCaption] = useState(initial?.caption ?? '');
  const [errors, setErrors] = useState<{ src?: string; alt?: string }>({});
  const urlRef = useRef<HTMLInputElement>(null);
  const altRef = useRef<HTMLInputElement>(null);
  const pickerId = useId();
  const pickerLabelId = `${pickerId}-label`;

  const onPick = (value: MediaValue | FileValue | null) => {
    const media = value && 'url' in value ? (value as MediaValue) : null;
    setPicked(media);
    if (media) {
      setUrl(media.url);
      if (media.alt && !alt) setAlt(media.alt);
    }
  };

  return (
    <DialogFrame
      title={initial ? '画像を編集' : '画像を挿入'}
      onClose={onClose}
      returnFocus={returnFocus}
      initialFocus={urlRef}
      submitLabel={initial ? '画像を更新' : '画像を挿入'}
      onSubmit={() => {
        const src = url.trim();
        const next: { src?: string; alt?: string } = {};
        if (!src) next.src = 'メディアライブラリから画像を選ぶか、画像の URL を入力してください。';
        else if (!isHttpUrl(src) || /^data:/i.test(src)) {
          next.src =
            'http:// か https:// で始まる画像の URL、または / で始まるサイト内のパスを入力してください。';
        }
        if (!alt.trim())
          next.alt = '代替テキストを入力してください。画像の内容を短い文で書きます。';
        setErrors(next);
        if (next.src) return urlRef.current?.focus();
        if (next.alt) return altRef.current?.focus();
        const sameAsPicked = picked && picked.url === src;
        const keepSize = initial && initial.src === src;
        onApply({
          src,
          alt: alt.trim(),
          caption: caption.trim(),
          width:
            sameAsPicked && picked.width ? String(picked.width) : keepSize ? initial.width : null,
          height:
            sameAsPicked && picked.height
              ? String(picked.height)
              : keepSize
                ? initial.height
                : null,
        });
      }}
    >
      <div className={users.field}>
        <span id={pickerLabelId} className={users.label}>
          メディアライブラリから選ぶ
        </span>
        <MediaPicker
          id={pickerId}
          kind="image"
          value={picked}
          onChange={onPick}
          labelledBy={pickerLabelId}
        />
      </div>
      <TextField
        label="画像の URL"
        hint="ライブラリにない画像は URL で指定できます。"
        error={errors.src ?? null}
        value={url}
        onChange={setUrl}
        inputRef={urlRef}
        inputMode="url"
        required
      />
      <TextField
        label="代替テキスト（alt）"
        hint="画像が見えない人にも内容が伝わるように書きます。例：木の机に並んだ三脚の椅子"
        error={errors.alt ?? null}
        value={alt}
        onChange={setAlt}
        inputRef={altRef}
        required
      />
      <TextField label="キャプション（任意）" error={null} value={caption} onChange={setCaption} />
    </DialogFrame>
  );
}

export const EMBED_HINT =
  'YouTube・Vimeo の動画、X（旧Twitter）・Instagram の投稿の URL を貼り付けてください。';

export function EmbedDialog({
  onApply,
  onClose,
  returnFocus,
}: {
  onApply: (embed: Embed) => void;
  onClose: () => void;
  /** How focus goes back to the editor (DialogFrame's Modal). */
  returnFocus?: () => void;
}) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <DialogFrame
      title="埋め込みを挿入"
      onClose={onClose}
      returnFocus={returnFocus}
      initialFocus={inputRef}
      submitLabel="埋め込む"
      onSubmit={() => {
        if (!url.trim()) {
          setError('URL を入力してください。');
          return inputRef.current?.focus();
        }
        const embed = embedFromUrl(url);
        if (!embed) {
          setError(
            '埋め込める URL ではありません。YouTube・Vimeo の動画ページ、X の投稿（…/status/…）、Instagram の投稿（/p/… や /reel/…）の URL を入力してください。',
          );
          return inputRef.current?.focus();
        }
        onApply(embed);
      }}
    >
      <TextField
        label="埋め込む URL"
        hint={EMBED_HINT}
        error={error}
        value={url}
        onChange={setUrl}
        inputRef={inputRef}
        inputMode="url"
        required
      />
      <p className={styles.or}>
        サイトでは、読者が再生を選ぶまで外部のプレーヤーやスクリプトを読み込みません。
      </p>
    </DialogFrame>
  );
}
