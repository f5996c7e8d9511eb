import { describe, expect, it } from 'vitest';
import { billingMails, mails } from './templates';

const link = { url: 'https://example.jp/t/abc', userId: 'u1', lifetimeSeconds: 3600 };
const withAction = {
  verifyEmail: mails.verifyEmail('a@example.jp', '読者', link),
  resetPassword: mails.resetPassword('a@example.jp', '読者', link),
  changeEmailVerify: mails.changeEmailVerify('a@example.jp', '読者', link),
  receipt: billingMails.receipt('a@example.jp', '読者', {
    number: 'INV-1',
    total: '¥1,100',
    tax: '¥100',
    paidAt: new Date('2026-11-01T00:00:00Z'),
    url: 'https://example.jp/account/receipts/in_1',
  }),
};

describe('mail templates', () => {
  it.each(Object.entries(withAction))(
    '%s: the plain text names the URL it carries, never a button',
    (_, mail) => {
      expect(mail.text).not.toContain('ボタン');
      expect(mail.text).toContain('下の URL');
      expect(mail.text).not.toContain('{action}');
    },
  );

  it.each(Object.entries(withAction))('%s: the HTML points at its button', (_, mail) => {
    expect(mail.html).toContain('下のボタン');
    expect(mail.html).not.toContain('{action}');
  });

  it('puts the link after the text that names it', () => {
    const { text } = withAction.verifyEmail;
    expect(text.indexOf('下の URL')).toBeLessThan(text.indexOf(link.url));
  });
});
