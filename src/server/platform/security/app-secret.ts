import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Env, env } from '@/env';
import { singleton } from '@/lib/singleton';

/**
 * The app's signing secret (signed media URLs, and any other HMAC the app needs; derive a
 * sub-key per use, see src/server/platform/security/signing.ts). APP_SECRET when set — required with more than one app
 * instance, since every instance must verify what another signed. Otherwise a secret kept in
 * `<DATA_DIR>/app-secret`, made on first use (32 random bytes, hex, mode 0600); its content
 * can later be moved into APP_SECRET unchanged.
 */

export const APP_SECRET_MIN_LENGTH = 32;
const FILE_NAME = 'app-secret';

const memo = singleton<{ cached?: { settings: Env; secret: Buffer } }>('app-secret', () => ({}));

export function getAppSecret(): Buffer {
  const settings = env();
  if (memo.cached?.settings === settings) return memo.cached.secret;
  const fromEnv = settings.APP_SECRET?.trim();
  let secret: Buffer;
  if (fromEnv) {
    if (fromEnv.length < APP_SECRET_MIN_LENGTH) {
      throw new Error(`APP_SECRET は ${APP_SECRET_MIN_LENGTH} 文字以上にしてください。`);
    }
    secret = Buffer.from(fromEnv, 'utf8');
  } else {
    secret = readOrCreateSecretFile(path.resolve(settings.DATA_DIR, FILE_NAME));
  }
  memo.cached = { settings, secret };
  return secret;
}

function readSecretFile(file: string): Buffer {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < APP_SECRET_MIN_LENGTH) {
    throw new Error(
      `${file} の秘密鍵が短すぎます (${APP_SECRET_MIN_LENGTH} 文字以上)。ファイルを消すと作り直されます (署名済みの URL は無効になります)。`,
    );
  }
  return Buffer.from(text, 'utf8');
}

function readOrCreateSecretFile(file: string): Buffer {
  try {
    return readSecretFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // DATA_DIR: owner only
  // Written whole to a private temporary file, then linked into place: link() fails if the
  // file already exists, so of two processes starting together one wins and both read it,
  // and nobody ever reads a half-written secret.
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temp, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV') {
      // Filesystems without hard links: exclusive create instead.
      try {
        fs.copyFileSync(temp, file, fs.constants.COPYFILE_EXCL);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code !== 'EEXIST') throw copyError;
      }
    } else if (code !== 'EEXIST') {
      throw error;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return readSecretFile(file);
}
