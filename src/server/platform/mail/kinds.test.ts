import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INQUIRY_KINDS } from '@/lib/inquiries';
import { MAIL_KIND_LABELS, mailKindLabel } from './kinds';
import { TOKEN_MAIL_KINDS } from './templates';

const SRC = path.resolve(import.meta.dirname, '../../..');

/** The source files that build a mail: this directory's, and whoever hands one to the mailer. */
function mailSources(): { file: string; text: string }[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
  );
  return files
    .map((file) => ({ file, text: readFileSync(path.join(SRC, file), 'utf8') }))
    .filter(
      ({ file, text }) =>
        file.startsWith(path.join('server', 'platform', 'mail')) ||
        /\b(?:sendMail|keepMail|sendCappedMail|recordSentMail)\(/.test(text),
    );
}

/**
 * The kinds the code names: each `kind: '…'` of those files, a template such as
 * `${details.kind}-received` spelled out for every inquiry form, and the token mails' kinds.
 */
function namedKinds(): Set<string> {
  const kinds = new Set<string>(Object.values(TOKEN_MAIL_KINDS));
  for (const { text } of mailSources()) {
    for (const [, literal] of text.matchAll(/\bkind: '([^']+)'/g)) kinds.add(literal!);
    for (const [, template] of text.matchAll(/\bkind: `([^`]+)`/g)) {
      // Only the inquiry forms' kind is built from a template; another one must be added here.
      expect(template, 'a mail kind built from a template').toBe('${details.kind}-received');
      for (const inquiry of INQUIRY_KINDS) kinds.add(`${inquiry}-received`);
    }
  }
  return kinds;
}

describe('mail kinds', () => {
  it('finds the kinds of every kind of mail: the templates’, the newsletter’s', () => {
    const kinds = namedKinds();
    for (const kind of ['verify-email', 'billing-receipt', 'listing-approved', 'newsletter'])
      expect(kinds).toContain(kind);
  });

  it.each([...namedKinds()])('%s has a Japanese label for the outbox', (kind) => {
    expect(mailKindLabel(kind)).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });

  it('labels no kind the code does not send, and tells each apart', () => {
    expect(Object.keys(MAIL_KIND_LABELS).sort()).toEqual([...namedKinds()].sort());
    const labels = Object.values(MAIL_KIND_LABELS);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('has no label for an unknown kind (an older row shows its key)', () => {
    expect(mailKindLabel('no-such-kind')).toBeNull();
    expect(mailKindLabel('toString')).toBeNull();
  });
});
