// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import type { Flash } from '@/lib/http/flash';
import { DONE_FLAG } from '@/lib/http/form-flash';
import { PageMessages } from './messages';

const flash = (message: string, values: Flash['values'] = {}): Flash => ({
  message,
  fieldErrors: {},
  values,
});

describe('PageMessages', () => {
  it('announces what a post did as a status, with no way to a form', () => {
    render(<PageMessages flash={flash('保存しました。', { [DONE_FLAG]: '1' })} errorAt="#edit" />);
    expect(screen.getByRole('status')).toHaveTextContent('保存しました。');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('says why a post failed as an alert, with a link to the form where one is named', () => {
    render(<PageMessages flash={flash('入力内容を確認してください。')} errorAt="#edit" />);
    expect(screen.getByRole('alert')).toHaveTextContent('入力内容を確認してください。');
    expect(screen.getByRole('link', { name: '該当のフォームへ移動' })).toHaveAttribute(
      'href',
      '#edit',
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows nothing without a message', () => {
    const { container } = render(<PageMessages flash={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
