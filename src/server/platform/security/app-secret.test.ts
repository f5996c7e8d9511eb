import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

// APP_SECRET is not declared in src/env.ts yet; this stands in for the declared setting.
const settings = vi.hoisted(() => {
  const current: Record<string, unknown> = {};
  return { current };
});
vi.mock('@/env', () => ({ env: () => settings.current }));

const { getAppSecret } = await import('./app-secret');

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-secret-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

beforeEach(() => {
  settings.current = { DATA_DIR: freshDir() };
});

describe('getAppSecret', () => {
  it('uses APP_SECRET when set, and writes no file', () => {
    const dir = freshDir();
    settings.current = { DATA_DIR: dir, APP_SECRET: 'x'.repeat(40) };
    expect(getAppSecret().toString()).toBe('x'.repeat(40));
    expect(fs.existsSync(path.join(dir, 'app-secret'))).toBe(false);
  });

  it('refuses a short APP_SECRET', () => {
    settings.current = { DATA_DIR: freshDir(), APP_SECRET: 'short' };
    expect(() => getAppSecret()).toThrow('32 文字以上');
  });

  it('reads an existing secret file instead of replacing it', () => {
    const dir = settings.current.DATA_DIR as string;
    fs.writeFileSync(path.join(dir, 'app-secret'), 'k'.repeat(48) + '\n', { mode: 0o600 });
    expect(getAppSecret().toString()).toBe('k'.repeat(48));
  });

  it('refuses a secret file that is too short', () => {
    const dir = settings.current.DATA_DIR as string;
    fs.writeFileSync(path.join(dir, 'app-secret'), 'short');
    expect(() => getAppSecret()).toThrow('短すぎます');
  });

  it('creates the data directory and the file when missing', () => {
    const dir = path.join(freshDir(), 'nested', 'data');
    settings.current = { DATA_DIR: dir };
    const secret = getAppSecret();
    expect(secret.length).toBe(64);
    expect(fs.statSync(path.join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
  });
});
