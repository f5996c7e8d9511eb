import { describe, it } from 'vitest';
import {
  expectFlashWithinCookie,
  itRefusesForeignAndLargePosts,
} from '@test-support/public-form-posts';
import {
  handleJobPostingInquiryPost,
  handlePartnerApplicationPost,
  jobPostingFlash,
  partnerApplicationFlash,
} from './inquiries-http';

describe('the inquiry forms’ one-time cookie', () => {
  const jobPosting = {
    posted: {
      company: '社'.repeat(2000),
      name: '名'.repeat(2000),
      email: 'a'.repeat(2000),
      phone: '0'.repeat(2000),
      message: '本'.repeat(4000),
    },
    errors: {
      company: '会社名は 100 文字以内にしてください。',
      name: 'お名前は 100 文字以内にしてください。',
      email: 'メールアドレスが長すぎます。',
      phone: '電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。',
      message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
    },
  };

  it('keeps only the job-posting form’s fields, small enough to stay under 4 KB', () => {
    expectFlashWithinCookie(jobPostingFlash, jobPosting.posted, jobPosting.errors);
  });

  it('keeps only the partner application’s fields, small enough to stay under 4 KB', () => {
    expectFlashWithinCookie(
      partnerApplicationFlash,
      {
        ...jobPosting.posted,
        website: `https://${'w'.repeat(2000)}`,
        companySize: '規'.repeat(200),
        plan: '案'.repeat(200),
      },
      {
        ...jobPosting.errors,
        name: 'ご担当者名は 100 文字以内にしてください。',
        website: 'ウェブサイトは https:// から始まる URL で入力してください。',
        companySize: '従業員数を選んでください。',
        plan: 'ご関心のあるプランを選んでください。',
        message: 'ご相談・ご質問は 4,000 文字以内にしてください。',
      },
    );
  });
});

for (const [path, handle] of [
  ['/api/jobs/contact', handleJobPostingInquiryPost],
  ['/api/biz/request', handlePartnerApplicationPost],
] as const) {
  describe(`POST ${path}`, () => {
    itRefusesForeignAndLargePosts(path, handle, 'company');
  });
}
