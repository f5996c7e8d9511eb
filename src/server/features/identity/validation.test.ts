import { describe, expect, it } from 'vitest';
import { env } from '@/env';
import { personalWords } from './password-strength';
import {
  WEAK_PASSWORD_MESSAGE,
  passwordProblem,
  passwordShapeProblem,
  signUpInput,
} from './validation';

const EMAIL = 'hanako.yamada@example.jp';
const NAME = '山田 花子';

describe('passwordProblem', () => {
  it.each([
    'aaaaaaaa',
    'abcdefgh',
    '        ',
    'password1',
    'password123',
    'qwertyuiop',
    '12345678',
    'P@55w0rd',
    'iloveyou2',
    'hanako2024',
    'hanakoyamada',
    'yamadahanako',
    '山田花子山田花子',
  ])('refuses %j as guessable, saying why in Japanese', (password) => {
    const problem = passwordProblem(password, EMAIL, NAME);
    expect(problem).toMatch(new RegExp(`^${WEAK_PASSWORD_MESSAGE}`));
    // zxcvbn's own advice follows, in its Japanese translation.
    expect(problem!.length).toBeGreaterThan(WEAK_PASSWORD_MESSAGE.length);
    expect(problem).toMatch(/[ぁ-んァ-ン一-龥]{4,}.*。$/u);
    expect(problem).not.toMatch(/[a-z]+[A-Z][a-z]+/); // no untranslated key such as simpleRepeat
  });

  it('names the kind of weakness zxcvbn found', () => {
    expect(passwordProblem('aaaaaaaa', EMAIL)).toContain('繰り返し');
    expect(passwordProblem('abcdefgh', EMAIL)).toContain('abc');
    expect(passwordProblem('password1', EMAIL)).toContain('よく使われる');
  });

  it('refuses the e-mail address, with its own message, and passwords built from it', () => {
    expect(passwordProblem(EMAIL, EMAIL)).toBe('メールアドレスと同じパスワードは使えません。');
    expect(passwordProblem('HANAKO.YAMADA@example.jp', EMAIL)).toBe(
      'メールアドレスと同じパスワードは使えません。',
    );
    expect(passwordProblem('hanako.yamada', EMAIL)).toBe(
      'メールアドレスと同じパスワードは使えません。',
    );
    const variant = passwordProblem('Hanako.Yamada@example.jp1', EMAIL);
    expect(variant).toMatch(new RegExp(`^${WEAK_PASSWORD_MESSAGE}`));
    expect(variant).toContain('個人情報');
  });

  it("refuses the site's name and its variants", () => {
    const site = env().SITE_NAME;
    for (const password of [
      site,
      site.toLowerCase(),
      site.replace(/\s+/g, ''),
      site.replace(/\s+/g, '-'),
      `${site}1`,
    ]) {
      if (password.length < 8) continue;
      expect(passwordProblem(password, EMAIL), password).toMatch(
        new RegExp(`^${WEAK_PASSWORD_MESSAGE}`),
      );
    }
  });

  it('keeps the length rule of 8 to 128 characters', () => {
    expect(passwordProblem('kumo-no', EMAIL)).toBe('パスワードは 8 文字以上にしてください。');
    expect(passwordProblem(`kumo-no-ue-no-sora-${'x'.repeat(110)}`, EMAIL)).toBe(
      'パスワードは 128 文字以内にしてください。',
    );
  });

  it.each([
    'kumo-no-ue-no-sora',
    'correct horse battery staple',
    'yoru-no-kissaten-7',
    'new-sky-password',
    '秋の夕暮れに古い喫茶店で',
  ])('accepts the passphrase %j', (password) => {
    expect(passwordProblem(password, EMAIL, NAME)).toBeNull();
  });

  it('accepts a long random password within the limit', () => {
    const random = 'v7#Qp9!zL2@xR4$wM8^kT1&nB6*cF3(hJ5)dG0_sY-eU+aI=oP{rW}';
    expect(passwordProblem(random + random, EMAIL)).toBeNull();
  });

  it('estimates only the first 64 characters, so its cost is bounded on every sign-up', () => {
    // Weak in its first 64 characters, strong after them: judged by the first 64 only.
    const random = 'v7#Qp9!zL2@xR4$wM8^kT1&nB6*cF3(hJ5)dG0_sY-eU+aI=oP{rW}';
    expect(passwordProblem(random, EMAIL)).toBeNull();
    expect(passwordProblem('a'.repeat(64) + random, EMAIL)).not.toBeNull();
  });
});

describe('the sign-up schema', () => {
  it('keeps only the quick password rules; the estimate runs after the rate limit', () => {
    const base = { email: EMAIL, displayName: NAME, consent: 'on' };
    expect(
      signUpInput.safeParse({ ...base, password: 'aaaaaaaa', passwordConfirm: 'aaaaaaaa' }).success,
    ).toBe(true);
    expect(passwordShapeProblem('short', EMAIL)).toBe('パスワードは 8 文字以上にしてください。');
    const short = signUpInput.safeParse({ ...base, password: 'short', passwordConfirm: 'short' });
    expect(short.success).toBe(false);
  });

  it('asks for the password once; a confirmation that is sent must match', () => {
    const base = { email: EMAIL, displayName: NAME, consent: 'on', password: 'aaaaaaaa' };
    expect(signUpInput.safeParse(base).success).toBe(true);
    const mismatch = signUpInput.safeParse({ ...base, passwordConfirm: 'bbbbbbbb' });
    expect(mismatch.success).toBe(false);
    expect(mismatch.error?.issues[0]?.path).toEqual(['passwordConfirm']);
  });
});

describe('personalWords', () => {
  it('gives zxcvbn the address, its pieces, the name and its pieces', () => {
    const words = personalWords([EMAIL, NAME, 'AXIS Membership', 'axis.example.jp']);
    expect(words).toEqual(
      expect.arrayContaining([
        'hanako.yamada@example.jp',
        'hanako',
        'yamada',
        'hanakoyamada',
        '山田',
        '花子',
        '山田花子',
        'axis membership',
        'axismembership',
        'membership',
        'axis',
      ]),
    );
    expect(words).not.toContain('jp');
  });
});
