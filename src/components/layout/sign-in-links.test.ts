import { describe, expect, it } from 'vitest';
import { signInHref, signUpHref } from './sign-in-links';

describe('sign-in links', () => {
  it('bring the reader back to the page and its query', () => {
    expect(signInHref('/posts/p1?ref=home')).toBe('/login?next=%2Fposts%2Fp1%3Fref%3Dhome');
    expect(signUpHref('/movies/m1')).toBe('/sign-up?next=%2Fmovies%2Fm1');
  });

  it('do not send the reader back to an account screen or off the site', () => {
    expect(signInHref('/login?next=%2F')).toBe('/login');
    expect(signInHref('/sign-up')).toBe('/login');
    expect(signUpHref('/account/edit')).toBe('/sign-up');
    expect(signInHref('https://evil.example/')).toBe('/login');
    expect(signInHref('//evil.example/')).toBe('/login');
    expect(signInHref(null)).toBe('/login');
  });
});
