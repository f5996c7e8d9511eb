import { describe, expect, it } from 'vitest';
import { encodeFlash } from '@/lib/http/flash';
import { countedStream, streamedPost } from '@test-support/streams';
import {
  handleJobPostingInquiryPost,
  handlePartnerApplicationPost,
  jobPostingFlash,
  partnerApplicationFlash,
} from './inquiries-http';

const under4kb = (values: Record<string, unknown>, fieldErrors: Record<string, string>) =>
  `axis_flash=${encodeFlash({
    message: '入力内容を確認してください。',
    fieldErrors,
    values: values as Record<string, string>,
  })}`.length;

describe('the inquiry forms’ one-time cookie', () => {
  it('keeps only the job-posting form’s fields, small enough to stay under 4 KB', () => {
    const out = jobPostingFlash({
      company: '社'.repeat(2000),
      name: '名'.repeat(2000),
      email: 'a'.repeat(2000),
      phone: '0'.repeat(2000),
      message: '本'.repeat(4000),
      extra: 'ignored',
    });
    expect(Object.keys(out).sort()).toEqual(['company', 'email', 'message', 'name', 'phone']);
    const errors = {
      company: '会社名は 100 文字以内にしてください。',
      name: 'お名前は 100 文字以内にしてください。',
      email: 'メールアドレスが長すぎます。',
      phone: '電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。',
      message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
    };
    expect(under4kb(out, errors)).toBeLessThan(4096);
  });

  it('keeps only the partner application’s fields, small enough to stay under 4 KB', () => {
    const out = partnerApplicationFlash({
      company: '社'.repeat(2000),
      name: '名'.repeat(2000),
      email: 'a'.repeat(2000),
      phone: '0'.repeat(2000),
      website: `https://${'w'.repeat(2000)}`,
      companySize: '規'.repeat(200),
      plan: '案'.repeat(200),
      message: '本'.repeat(4000),
      extra: 'ignored',
    });
    expect(Object.keys(out).sort()).toEqual([
      'company',
      'companySize',
      'email',
      'message',
      'name',
      'phone',
      'plan',
      'website',
    ]);
    const errors = {
      company: '会社名は 100 文字以内にしてください。',
      name: 'ご担当者名は 100 文字以内にしてください。',
      email: 'メールアドレスが長すぎます。',
      phone: '電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。',
      website: 'ウェブサイトは https:// から始まる URL で入力してください。',
      companySize: '従業員数を選んでください。',
      plan: 'ご関心のあるプランを選んでください。',
      message: 'ご相談・ご質問は 4,000 文字以内にしてください。',
    };
    expect(under4kb(out, errors)).toBeLessThan(4096);
  });
});

for (const [path, handle] of [
  ['/api/jobs/contact', handleJobPostingInquiryPost],
  ['/api/biz/request', handlePartnerApplicationPost],
] as const) {
  describe(`POST ${path}`, () => {
    it('refuses a post from another site with 403 before reading it', async () => {
      const response = await handle(
        new Request(`http://localhost:3000${path}`, {
          method: 'POST',
          headers: {
            host: 'localhost:3000',
            origin: 'https://evil.example',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'company=a',
        }),
      );
      expect(response.status).toBe(403);
    });

    it('stops reading a 400 MB chunked post at 64 KB and answers 413', async () => {
      const body = countedStream({ head: 'company=a&message=', total: 400 * 1024 * 1024 });
      const response = await handle(
        streamedPost(`http://localhost:3000${path}`, body.stream, {
          host: 'localhost:3000',
          origin: 'http://localhost:3000',
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        }),
      );
      expect(response.status).toBe(413);
      expect(body.pulled()).toBeLessThan(64 * 1024 + 2 * 64 * 1024);
    });
  });
}
