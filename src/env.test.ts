import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('parseEnv', () => {
  it('applies the documented defaults on an empty environment', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.SITE_URL).toBe('http://localhost:3000');
    expect(env.SITE_NAME).toBe('AXIS Membership');
    expect(env.DATA_DIR).toBe('./.data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_CHECK_REDIRECT).toBe(false);
    expect(env.GTM_ID).toBeUndefined();
  });

  it('derives SITE_URL from PORT and strips a trailing slash from a given one', () => {
    expect(parseEnv({ PORT: '4100' }).SITE_URL).toBe('http://localhost:4100');
    expect(parseEnv({ SITE_URL: 'https://example.jp/' }).SITE_URL).toBe('https://example.jp');
  });

  it('treats empty strings as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', GTM_ID: ' ', SITE_NAME: '' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.GTM_ID).toBeUndefined();
    expect(env.SITE_NAME).toBe('AXIS Membership');
  });

  it('turns the auth-check redirect on only for the exact text "true"', () => {
    expect(parseEnv({ AUTH_CHECK_REDIRECT: 'true' }).AUTH_CHECK_REDIRECT).toBe(true);
    for (const value of ['TRUE', '1', 'yes', 'true ', 'false']) {
      expect(parseEnv({ AUTH_CHECK_REDIRECT: value }).AUTH_CHECK_REDIRECT).toBe(false);
    }
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SITE_URL', 'ftp://example.jp'],
    ['SITE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['GTM_ID', 'UA-12345'],
    ['OPERATOR_PHONE', '電話: 03-1234-5678'],
    ['OPERATOR_PHONE', '03-1234'],
    ['OPERATOR_EMAIL', 'support at example.jp'],
  ])('rejects a bad %s (%s) with a message naming the variable', (variable, value) => {
    let error: unknown;
    try {
      parseEnv({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).message).toContain(`${variable}:`);
    expect((error as EnvError).issues.map((i) => i.variable)).toEqual([variable]);
  });

  it('takes the operator settings as given, phone numbers with or without hyphens', () => {
    const env = parseEnv({
      OPERATOR_NAME: ' 株式会社見本出版 ',
      OPERATOR_PHONE: '+81-3-1234-5678',
      OPERATOR_EMAIL: 'support@example.jp',
      OPERATOR_DISCLOSE_ON_REQUEST: 'true',
    });
    expect(env.OPERATOR_NAME).toBe('株式会社見本出版');
    expect(env.OPERATOR_PHONE).toBe('+81-3-1234-5678');
    expect(env.OPERATOR_DISCLOSE_ON_REQUEST).toBe(true);
    expect(parseEnv({ OPERATOR_PHONE: '0312345678' }).OPERATOR_PHONE).toBe('0312345678');
    expect(parseEnv({ OPERATOR_DISCLOSE_ON_REQUEST: 'yes' }).OPERATOR_DISCLOSE_ON_REQUEST).toBe(
      false,
    );
  });

  it('names every bad variable at once', () => {
    expect(() => parseEnv({ PORT: '-1', GTM_ID: 'x' })).toThrow(/PORT:[\s\S]*GTM_ID:/);
  });

  it('takes a sign-in provider only with both of its values, and names the missing one', () => {
    expect(
      parseEnv({
        LINE_CHANNEL_ID: '1234567890',
        LINE_CHANNEL_SECRET: 'line-channel-secret-0123',
        GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'google-secret',
      }),
    ).toMatchObject({ LINE_CHANNEL_ID: '1234567890', GOOGLE_CLIENT_SECRET: 'google-secret' });
    expect(() => parseEnv({ LINE_CHANNEL_ID: '1234567890' })).toThrow(/LINE_CHANNEL_SECRET:/);
    expect(() => parseEnv({ GOOGLE_CLIENT_SECRET: 'google-secret' })).toThrow(/GOOGLE_CLIENT_ID:/);
    expect(() =>
      parseEnv({ GOOGLE_CLIENT_ID: 'not-a-client-id', GOOGLE_CLIENT_SECRET: 'google-secret' }),
    ).toThrow(/GOOGLE_CLIENT_ID:/);
  });
});
