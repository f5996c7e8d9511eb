// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AvatarField, avatarFileProblem } from './avatar-field.client';

const MAX = 2 * 1024 * 1024;

const picture = (name = 'me.png', type = 'image/png', size = 1000) =>
  new File([new Uint8Array(size)], name, { type });

// jsdom has no object URLs: these stand in and record what was let go.
const revoked: string[] = [];
beforeEach(() => {
  let n = 0;
  revoked.length = 0;
  URL.createObjectURL = () => `blob:preview-${++n}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});

describe('avatarFileProblem', () => {
  it('accepts the pictures the server keeps, up to the limit', () => {
    expect(avatarFileProblem({ type: 'image/jpeg', size: MAX }, MAX)).toBeNull();
    expect(avatarFileProblem({ type: 'image/avif', size: 10 }, MAX)).toBeNull();
    // An unknown type is the server's to judge from the bytes.
    expect(avatarFileProblem({ type: '', size: 10 }, MAX)).toBeNull();
  });

  it('says in Japanese what is wrong with other files', () => {
    expect(avatarFileProblem({ type: 'image/heic', size: 10 }, MAX)).toBe(
      'JPEG・PNG・WebP・GIF・AVIF の画像を選んでください。',
    );
    expect(avatarFileProblem({ type: 'image/png', size: 3.2 * 1024 * 1024 }, MAX)).toBe(
      'ファイルが大きすぎます。2 MB までです（このファイル: 3.2 MB）。',
    );
  });
});

describe('AvatarField', () => {
  it('shows the current picture, then a preview of the chosen one until it is taken back', async () => {
    const user = userEvent.setup();
    render(<AvatarField currentUrl="/uploads/images/a.png" displayName="花子" maxBytes={MAX} />);
    expect(screen.getByRole('img', { name: '現在のプロフィール画像' })).toHaveAttribute(
      'src',
      '/uploads/images/a.png',
    );
    const input = screen.getByLabelText('プロフィール画像');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp,image/gif,image/avif');

    await user.upload(input, picture('logo.png'));
    expect(screen.getByRole('img', { name: '選んだ画像のプレビュー' })).toHaveAttribute(
      'src',
      'blob:preview-1',
    );
    expect(screen.getByText('logo.png')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('「保存する」で反映されます');

    await user.click(screen.getByRole('button', { name: '選んだ画像を取り消す' }));
    expect(screen.getByRole('img', { name: '現在のプロフィール画像' })).toBeInTheDocument();
    expect((input as HTMLInputElement).files).toHaveLength(0);
    expect(input).toHaveFocus();
    expect(revoked).toEqual(['blob:preview-1']);
  });

  it('refuses a file the server would refuse, before sending it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<AvatarField currentUrl={null} displayName="花子" maxBytes={MAX} />);
    const input = screen.getByLabelText('プロフィール画像');
    await user.upload(input, picture('big.png', 'image/png', MAX + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('ファイルが大きすぎます。');
    expect(screen.queryByRole('img')).toBeNull();
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('says that saving removes the picture when the box is ticked', async () => {
    const user = userEvent.setup();
    render(<AvatarField currentUrl="/uploads/images/a.png" displayName="花子" maxBytes={MAX} />);
    await user.click(screen.getByRole('checkbox', { name: 'プロフィール画像を削除する' }));
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('花')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      '保存すると、プロフィール画像を削除します。',
    );
  });
});
