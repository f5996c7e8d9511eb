import { describe, expect, it } from 'vitest';
import { encodeFlash } from '@/lib/http/flash';
import { countedStream, streamedPost } from '@test-support/streams';
import { flashInput, handleContactPost } from './contact-http';

describe('flashInput', () => {
  it('keeps only the form fields, each small enough that the one-time cookie stays under 4 KB', () => {
    const input = {
      name: '名'.repeat(2000),
      email: 'a'.repeat(2000),
      subject: 'その他',
      message: '本'.repeat(4000),
      extra: 'ignored',
    };
    const out = flashInput(input);
    expect(Object.keys(out).sort()).toEqual(['email', 'message', 'name', 'subject']);
    expect(out.subject).toBe('その他');
    expect(out.message).toBe('本'.repeat(400));
    const cookie = encodeFlash({
      message: '入力内容を確認してください。',
      fieldErrors: {
        name: 'お名前は 100 文字以内にしてください。',
        email: 'メールアドレスが長すぎます。',
        subject: 'お問い合わせの種類を選んでください。',
        message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
      },
      values: out as Record<string, string>,
    });
    expect(`axis_flash=${cookie}`.length).toBeLessThan(4096);
  });
});

describe('POST /api/contact', () => {
  it('refuses a post from another site with 403 before reading it', async () => {
    const response = await handleContactPost(
      new Request('http://localhost:3000/api/contact', {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'name=a',
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      ok: false,
      message: 'このページからは送信できません。ページを再読み込みしてください。',
    });
  });

  it('stops reading a 400 MB chunked post at 64 KB and answers 413', async () => {
    const body = countedStream({ head: 'name=a&message=', total: 400 * 1024 * 1024 });
    const response = await handleContactPost(
      streamedPost('http://localhost:3000/api/contact', body.stream, {
        host: 'localhost:3000',
        origin: 'http://localhost:3000',
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      }),
    );
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThan(64 * 1024 + 2 * 64 * 1024);
  });

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
