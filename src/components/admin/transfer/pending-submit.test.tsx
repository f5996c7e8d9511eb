// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PendingSubmit } from './pending-submit.client';

describe('PendingSubmit', () => {
  it('turns busy and says so once its form is submitted', () => {
    render(
      <form onSubmit={(e) => e.preventDefault()}>
        <PendingSubmit pendingText="送信しています。">取り込む</PendingSubmit>
      </form>,
    );
    const button = screen.getByRole('button', { name: '取り込む' });
    expect(button).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent('');
    fireEvent.submit(button.closest('form')!);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('送信しています。');
  });
});
