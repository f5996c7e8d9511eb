import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from './server-process.mjs';

const root = path.resolve(import.meta.dirname, '..');

describe('the server process settings', () => {
  it('are what `npm start` runs with, so the benchmarks measure what operators run', () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const variables = Object.entries(SERVER_MEMORY_ENV).map(([name, value]) => `${name}=${value}`);
    expect(scripts.start).toBe(
      [...variables, 'node', ...SERVER_NODE_FLAGS, 'scripts/launch.mjs', 'start'].join(' '),
    );
  });
});
