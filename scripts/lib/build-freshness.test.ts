import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBuildInputs, recordBuild, staleBuildReason } from './build-freshness';
import { productionInstallReason } from './production-install.mjs';

const settings = {
  SITE_URL: 'http://localhost:3000',
  SITE_NAME: 'AXIS Membership',
  GTM_ID: undefined,
};

describe('staleBuildReason', () => {
  let root: string;
  /** Writes a file and dates it, and its folders, at `at` (ms). */
  const write = (file: string, text: string, at: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    for (let p = path.join(root, file); p !== root; p = path.dirname(p))
      fs.utimesSync(p, at / 1000, at / 1000);
  };
  /** What runNextBuild leaves, made from the tree as it is now. */
  const build = (at: number) => {
    write('.next/BUILD_ID', 'id', at);
    recordBuild(root, settings, hashBuildInputs(root));
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-build-'));
    write('src/app/page.tsx', 'export default 1;', 1_000_000);
    write('package.json', '{}', 1_000_000);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('asks for a build when there is none', () => {
    expect(staleBuildReason(root, settings)).toBe('no build yet');
  });

  it('accepts a build made from the same sources and settings', () => {
    build(2_000_000);
    expect(staleBuildReason(root, settings)).toBeNull();
  });

  it('keeps the build when the sources are written again with the same bytes, newer than it', () => {
    build(2_000_000);
    // A fresh checkout: every file and folder newer than the build, nothing else changed.
    write('src/app/page.tsx', 'export default 1;', 3_000_000);
    write('package.json', '{}', 3_000_000);
    expect(staleBuildReason(root, settings)).toBeNull();
  });

  it('asks for a build when a source changed, even when it looks older than the build', () => {
    build(2_000_000);
    write('src/app/page.tsx', 'export default 2;', 1_000_000);
    expect(staleBuildReason(root, settings)).toBe('src changed since the last build');
  });

  it('asks for a build when a source file was added or deleted', () => {
    build(2_000_000);
    write('src/components/deep/nested/file.tsx', '', 1_000_000);
    expect(staleBuildReason(root, settings)).toBe('src changed since the last build');
    fs.rmSync(path.join(root, 'src/components'), { recursive: true });
    expect(staleBuildReason(root, settings)).toBeNull();
    fs.rmSync(path.join(root, 'src/app/page.tsx'));
    expect(staleBuildReason(root, settings)).toBe('src changed since the last build');
  });

  it('asks for a build when the build does not say what it was made from', () => {
    write('.next/BUILD_ID', 'id', 2_000_000); // a build made before the record existed
    expect(staleBuildReason(root, settings)).toMatch(/not recorded/);
  });

  it('asks for a build when a baked setting changed, naming it and the value built with', () => {
    build(2_000_000);
    const reason = staleBuildReason(root, { ...settings, SITE_URL: 'https://media.example.jp' });
    expect(reason).toContain('SITE_URL changed');
    expect(reason).toContain(settings.SITE_URL);
    expect(reason).not.toContain('SITE_NAME');
  });
});

describe('productionInstallReason', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-install-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes a tree with typescript installed for a development checkout', () => {
    fs.mkdirSync(path.join(root, 'node_modules/typescript'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/typescript/package.json'), '{}');
    expect(productionInstallReason(root, {})).toBeNull();
    expect(productionInstallReason(root, { NODE_ENV: 'production' })).toBe('NODE_ENV=production');
  });

  it('takes a tree without the development packages for a production install', () => {
    fs.mkdirSync(path.join(root, 'node_modules/esbuild'), { recursive: true }); // better-auth brings it
    expect(productionInstallReason(root, {})).toMatch(/typescript/);
  });
});
