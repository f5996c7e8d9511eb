import { screen } from '@testing-library/react';
import { expect } from 'vitest';

/** The link named `name` (in `scope`, the whole document by default) leads to `href`. */
export function expectLinkTo(
  name: string,
  href: string,
  scope: Pick<typeof screen, 'getByRole'> = screen,
) {
  expect(scope.getByRole('link', { name })).toHaveAttribute('href', href);
}
