import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordBuildSettings, staleBuildReason } from './build-freshness';

const settings = {
  SITE_URL: 'http://localhost:3000',
  SITE_NAME: 'AXIS Membership',
  GTM_ID: undefined,
};

describe('staleBuildReason', () => {
  let root: string;
  const touch = (file: string, at: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), 'x');
    // Directories count too (a deleted file changes only its folder): date them as well.
    for (let p = path.join(root, file); p !== root; p = path.dirname(p))
      fs.utimesSync(p, at / 1000, at / 1000);
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-build-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('asks for a build when there is none', () => {
    expect(staleBuildReason(root, settings)).toBe('no build yet');
  });

  it('accepts a build newer than every source with the same settings', () => {
    touch('src/app/page.tsx', 1_000_000);
    touch('.next/BUILD_ID', 2_000_000);
    recordBuildSettings(root, settings);
    expect(staleBuildReason(root, settings)).toBeNull();
  });

  it('asks for a build when a source file is newer than the build', () => {
    touch('.next/BUILD_ID', 2_000_000);
    recordBuildSettings(root, settings);
    touch('src/components/deep/nested/file.tsx', 3_000_000);
    expect(staleBuildReason(root, settings)).toBe('src changed since the last build');
  });

  it('asks for a build when a baked setting changed', () => {
    touch('.next/BUILD_ID', 2_000_000);
    recordBuildSettings(root, settings);
    expect(staleBuildReason(root, { ...settings, SITE_URL: 'https://media.example.jp' })).toMatch(
      /changed/,
    );
  });
});
