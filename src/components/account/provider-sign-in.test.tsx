// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProviderSignIn } from './provider-sign-in';

describe('ProviderSignIn', () => {
  it('shows nothing when no provider is configured', () => {
    const { container } = render(<ProviderSignIn providers={[]} next="/" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('posts each provider as a plain form that keeps `next`, with the consent beside it', () => {
    render(
      <ProviderSignIn
        providers={[
          { id: 'line', label: 'LINE' },
          { id: 'google', label: 'Google' },
        ]}
        next="/posts/post-001"
      />,
    );
    for (const [id, label] of [
      ['line', 'LINE'],
      ['google', 'Google'],
    ] as const) {
      const button = screen.getByRole('button', { name: `${label} でログイン` });
      const form = button.closest('form')!;
      expect(form.getAttribute('method')).toBe('post');
      expect(form.getAttribute('action')).toBe(`/api/account/sign-in-with/${id}`);
      expect(form.querySelector<HTMLInputElement>('input[name="next"]')!.value).toBe(
        '/posts/post-001',
      );
    }
    expect(screen.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute(
      'href',
      '/terms#privacy',
    );
  });
});
