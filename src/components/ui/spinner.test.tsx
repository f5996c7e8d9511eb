// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { DEFAULT_SPINNER_LABEL, InlineSpinner, Spinner } from './spinner';

describe('Spinner', () => {
  it('is a status named 読み込み中 by default, filling the page height', () => {
    render(<Spinner />);
    expect(DEFAULT_SPINNER_LABEL).toBe('読み込み中');
    const status = screen.getByRole('status', { name: '読み込み中' });
    // The label is the region's content too, so a live region announcement has something to say.
    expect(status).toHaveTextContent('読み込み中');
    expect(status).toHaveAttribute('data-full-height', 'true');
  });

  it('takes a custom label', () => {
    render(<Spinner label="記事を読み込み中" />);
    expect(screen.getByRole('status', { name: '記事を読み込み中' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: '読み込み中' })).toBeNull();
  });

  it('can sit inside a section instead of filling the page', () => {
    render(<Spinner fullHeight={false} className="extra" />);
    const status = screen.getByRole('status');
    expect(status).not.toHaveAttribute('data-full-height');
    expect(status).toHaveClass('extra');
  });

  it('hides the rotating mark from assistive technology', () => {
    render(<Spinner />);
    const mark = screen.getByRole('status').querySelector('[aria-hidden="true"]');
    expect(mark).not.toBeNull();
    expect(mark).toBeEmptyDOMElement();
  });
});

describe('InlineSpinner', () => {
  it('is decorative: hidden from assistive technology and not a status', () => {
    const { container } = render(<InlineSpinner className="in-button" />);
    const spinner = container.firstElementChild;
    expect(spinner).toHaveAttribute('aria-hidden', 'true');
    expect(spinner).toHaveClass('in-button');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
