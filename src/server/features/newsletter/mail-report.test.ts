import { describe, expect, it } from 'vitest';
import { arfReport, gmailDsn, postfixDsn } from '@test-support/mail-reports';
import { dsnVerdict } from './bounces';
import { MAX_MAIL_BYTES, MailReportError, readMailReport } from './mail-report';

// The reader of returned mail: DSNs of Postfix and Gmail, a provider's ARF, and what is not one.

const ID = '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
const read = (text: string) => readMailReport(Buffer.from(text));

describe('readMailReport', () => {
  it("reads Postfix's DSN sent to the letter's VERP address", async () => {
    const report = await read(
      postfixDsn({ recipient: 'Reader@Example.com', sender: `bounces+${ID}@news.example.jp` }),
    );
    expect(report).toEqual({
      kind: 'delivery-status',
      letterIds: [ID],
      recipients: [
        {
          finalRecipient: 'reader@example.com',
          originalRecipient: 'reader@example.com',
          action: 'failed',
          status: '5.1.1',
          // Unfolded: the field spans two lines in the report.
          diagnostic:
            '550 5.1.1 <Reader@Example.com>: Recipient address rejected: User unknown in virtual mailbox table',
        },
      ],
    });
  });

  it("reads a delay, and finds the letter's own header in the returned headers", async () => {
    const report = await read(
      postfixDsn({
        recipient: 'reader@example.com',
        letterId: ID.toUpperCase(),
        action: 'delayed',
        status: '4.4.1',
        diagnostic: 'connect to mx.example.com[192.0.2.1]:25: Connection timed out',
      }),
    );
    expect(report).toMatchObject({
      kind: 'delivery-status',
      letterIds: [ID],
      recipients: [{ action: 'delayed', status: '4.4.1' }],
    });
  });

  it("reads Gmail's DSN with the letter returned whole", async () => {
    const report = await read(gmailDsn({ recipient: 'nosuch@gmail.example', letterId: ID }));
    expect(report).toMatchObject({
      kind: 'delivery-status',
      letterIds: [ID],
      recipients: [
        {
          finalRecipient: 'nosuch@gmail.example',
          originalRecipient: null,
          action: 'failed',
          status: '5.1.1',
        },
      ],
    });
    if (report.kind !== 'delivery-status') throw new Error('not a DSN');
    expect(report.recipients[0]!.diagnostic).toMatch(
      /^550-5\.1\.1 The email account .* 550 5\.1\.1 /,
    );
  });

  it("reads a provider's ARF: the type, the recipient and the letter's id", async () => {
    expect(await read(arfReport({ recipient: 'reader@mail.example.net', letterId: ID }))).toEqual({
      kind: 'feedback',
      letterIds: [ID],
      feedbackType: 'abuse',
      recipients: ['reader@mail.example.net'],
      source: 'ExampleMail-Feedback/2.0',
    });
    // Redacted by the provider: no address and no id is an empty report, not a crash.
    const redacted = await read(arfReport({ recipient: 'undisclosed-recipients:;', rcptTo: null }));
    expect(redacted).toMatchObject({ kind: 'feedback', letterIds: [], recipients: [] });
  });

  it('names other mail by its type, and ignores ids that are not ours in shape', async () => {
    expect(await read('From: a@example.jp\r\nSubject: hello\r\n\r\nRe: your letter\r\n')).toEqual({
      kind: 'other',
      contentType: 'text/plain',
    });
    const forwarded = postfixDsn({ recipient: 'r@example.com' }).replace(
      'report-type=delivery-status',
      'report-type=disposition-notification',
    );
    expect(await read(forwarded)).toEqual({
      kind: 'other',
      contentType: 'multipart/report; report-type=disposition-notification',
    });
    const odd = await read(
      postfixDsn({ recipient: 'r@example.com', sender: 'bounces+not-a-uuid@news.example.jp' }),
    );
    expect(odd).toMatchObject({ letterIds: [] });
  });

  it('refuses an empty or an oversized mail in Japanese', async () => {
    await expect(read('')).rejects.toThrow(MailReportError);
    await expect(readMailReport(Buffer.alloc(MAX_MAIL_BYTES + 1, 'a'))).rejects.toThrow(
      /メールが大きすぎます .*2 MiB まで/,
    );
  });
});

describe('dsnVerdict', () => {
  const entry = (action: string, status: string | null) => ({
    finalRecipient: 'r@example.com',
    originalRecipient: null,
    action,
    status,
    diagnostic: '',
  });

  it('bounces on a permanent failure of the address, and only then', () => {
    expect(dsnVerdict([entry('failed', '5.1.1')])).toEqual({ verdict: 'bounce', code: '5.1.1' });
    expect(dsnVerdict([entry('failed', '5.2.1')]).verdict).toBe('bounce');
    // Policy, content or the system: about us or our letter, not the address.
    for (const status of ['5.7.1', '5.6.0', '5.3.4', '5.5.2'])
      expect(dsnVerdict([entry('failed', status)]).verdict).toBe('not-the-address');
    expect(dsnVerdict([entry('delayed', '4.4.1')])).toEqual({ verdict: 'delayed', code: '4.4.1' });
    expect(dsnVerdict([entry('failed', '4.2.2')]).verdict).toBe('delayed');
    expect(dsnVerdict([entry('failed', null)]).verdict).toBe('not-failed');
    expect(dsnVerdict([entry('delivered', '2.0.0')]).verdict).toBe('not-failed');
    expect(dsnVerdict([]).verdict).toBe('not-failed');
  });
});
