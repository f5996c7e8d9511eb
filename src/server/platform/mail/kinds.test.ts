import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INQUIRY_KINDS } from '@/lib/inquiries';
import { MAIL_KIND_LABELS, mailKindLabel } from './kinds';

// Every mail the code sends has a Japanese label for the outbox: `Mail.kind` is typed as a key
// of MAIL_KIND_LABELS (mail.ts), so a kind without a label does not compile. What a test adds:
// each label is Japanese and its own, and no label outlives the mail it named.

const SRC = path.resolve(import.meta.dirname, '../../..');

/** The source of src, tests and this list left out: where a kind that is sent is named. */
function sourceText(): string {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => file !== path.join('server', 'platform', 'mail', 'kinds.ts'))
    .map((file) => readFileSync(path.join(SRC, file), 'utf8'))
    .join('\n');
}

describe('mail kinds', () => {
  it.each(Object.entries(MAIL_KIND_LABELS))('%s has a Japanese label: %s', (_kind, label) => {
    expect(label).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });

  it('tells each kind apart', () => {
    const labels = Object.values(MAIL_KIND_LABELS);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('labels no kind the code no longer sends', () => {
    const text = sourceText();
    // The inquiry forms' kinds are built from a template (`${details.kind}-received`).
    const inquiries = new Set(INQUIRY_KINDS.map((inquiry) => `${inquiry}-received`));
    const unnamed = Object.keys(MAIL_KIND_LABELS).filter(
      (kind) => !inquiries.has(kind) && !text.includes(`'${kind}'`),
    );
    expect(unnamed).toEqual([]);
    expect(text).toContain('${details.kind}-received');
  });

  it('has no label for an unknown kind (an older row shows its key)', () => {
    expect(mailKindLabel('no-such-kind')).toBeNull();
    expect(mailKindLabel('toString')).toBeNull();
  });
});
