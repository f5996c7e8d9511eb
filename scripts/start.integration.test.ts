import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm start', () => {
  it('stops before building when a setting is bad, naming the variable', async () => {
    const result = await run('npx', ['tsx', '--conditions=react-server', 'scripts/start.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, PORT: 'abc', GTM_ID: 'UA-1' },
    }).then(
      () => ({ code: 0, stderr: '', stdout: '' }),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT:');
    expect(result.stderr).toContain('GTM_ID:');
    expect(result.stdout).not.toContain('building');
  });
});
