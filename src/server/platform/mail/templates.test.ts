import { describe, expect, it } from 'vitest';
import { env } from '@/env';
import { billingMails, inquiryReceived, mails } from './templates';

const link = { url: 'https://example.jp/t/abc', userId: 'u1', lifetimeSeconds: 3600 };
const withAction = {
  verifyEmail: mails.verifyEmail('a@example.jp', '読者', link),
  resetPassword: mails.resetPassword('a@example.jp', '読者', link),
  changeEmailVerify: mails.changeEmailVerify('a@example.jp', '読者', link),
  signInLink: mails.signInLink('a@example.jp', '読者', { ...link, lifetimeSeconds: 900 }),
  paidSignInLink: mails.paidSignInLink('a@example.jp', 'a', 'メンバーシップ 月額プラン', {
    ...link,
    lifetimeSeconds: 900,
  }),
  signInLinkNoAccount: mails.signInLinkNoAccount('a@example.jp', 'https://example.jp/sign-up'),
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

  it('links the staff notice of an inquiry to the list where its state is followed', () => {
    const mail = inquiryReceived('staff@example.jp', {
      kind: 'partner-application',
      company: '株式会社テスト',
      name: '山田 花子',
      email: 'hanako@example.jp',
      phone: '03-1234-5678',
      website: null,
      companySize: '10〜49名',
      plan: '求人掲載',
      message: null,
      receivedAt: new Date('2026-11-01T00:00:00Z'),
      userId: null,
    });
    const url = `${env().SITE_URL}/biz/axis-admin#inquiries`;
    expect(mail.text).toContain(`申し込み・問い合わせの一覧: ${url}`);
    expect(mail.html).toContain(`href="${url}"`);
  });
});

describe('the access words in billing mails (無料公開 / 会員限定 / 有料会員限定)', () => {
  // 会員限定 is what a free account opens: what a paid plan opens is 有料会員限定.
  const saysMembersForPaid = (text: string) => /(?<!有料)会員限定/.test(text);

  it('names what a paid plan opens 有料会員限定, never 会員限定', () => {
    const welcome = billingMails.welcome('a@example.jp', '読者', {
      name: '月額プラン',
      price: '¥1,100（税込）／月',
      trialEnd: null,
      renewsAt: new Date('2026-12-27T00:00:00Z'),
    });
    const failed = billingMails.paymentFailed('a@example.jp', '読者', {
      total: '¥1,100',
      nextAttempt: null,
    });
    for (const mail of [welcome, failed]) {
      expect(mail.text).toContain('有料会員限定');
      expect(saysMembersForPaid(mail.text)).toBe(false);
    }
  });
});
