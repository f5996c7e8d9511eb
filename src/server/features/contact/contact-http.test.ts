import { describe, expect, it } from 'vitest';
import {
  expectFlashWithinCookie,
  itRefusesForeignAndLargePosts,
} from '@test-support/public-form-posts';
import { flashInput, handleContactPost } from './contact-http';

describe('flashInput', () => {
  it('keeps only the form fields, each small enough that the one-time cookie stays under 4 KB', () => {
    const out = expectFlashWithinCookie(
      flashInput,
      {
        name: '名'.repeat(2000),
        email: 'a'.repeat(2000),
        subject: 'その他',
        message: '本'.repeat(4000),
      },
      {
        name: 'お名前は 100 文字以内にしてください。',
        email: 'メールアドレスが長すぎます。',
        subject: 'お問い合わせの種類を選んでください。',
        message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
      },
    );
    expect(out.subject).toBe('その他');
    expect(out.message).toBe('本'.repeat(400));
  });
});

describe('POST /api/contact', () => {
  itRefusesForeignAndLargePosts('/api/contact', handleContactPost, 'name');

  it('answers 400 to deeply nested JSON', async () => {
    const response = await handleContactPost(
      new Request('http://localhost:3000/api/contact', {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: 'http://localhost:3000',
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: `{"message":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      }),
    );
    expect(response.status).toBe(400);
  });
});
