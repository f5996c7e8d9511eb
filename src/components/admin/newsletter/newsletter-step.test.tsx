// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  type NewsletterStepProps,
  type SendView,
  type StepPost,
  letterCounts,
} from '@/lib/newsletter/console';
import { NewsletterStep } from './newsletter-step';
import { SendConfirm, confirmQuestion } from './send-confirm';

const post = (over: Partial<StepPost> = {}): StepPost => ({
  id: 'p1',
  title: '椅子の百年',
  status: 'published',
  scheduledAt: null,
  publicUrl: '/posts/p1',
  ...over,
});

const send: SendView = {
  id: '00000000-0000-4000-8000-000000000001',
  contentId: 'p1',
  title: '椅子の百年',
  segment: 'free',
  status: 'done',
  createdAt: '2026-11-20T01:00:00.000Z',
  by: '編集部 佐藤',
  counts: letterCounts({ sent: 12, opened: 4 }),
};

const props = (over: Partial<NewsletterStepProps> = {}): NewsletterStepProps => ({
  post: post(),
  counts: { all: 1234, free: 1000, paid: 234 },
  sends: [],
  preview: { audience: 'free', html: '<p>本文</p>' },
  testTo: 'editor@example.jp',
  outbox: true,
  ...over,
});

describe('NewsletterStep', () => {
  it('offers the segments with their counts in a fieldset, and sending now for a published post', () => {
    render(<NewsletterStep {...props()} />);
    const group = screen.getByRole('group', { name: '配信先' });
    expect(within(group).getByLabelText('購読を希望した全員（1,234 人）')).toHaveProperty(
      'checked',
      true,
    );
    expect(within(group).getByLabelText('無料会員（1,000 人）')).toBeTruthy();
    expect(within(group).getByLabelText('有料会員（234 人）')).toBeTruthy();
    expect(screen.getByRole('button', { name: '今すぐ配信…' })).toBeTruthy();
    // Two previews, a phone's and a desktop's width, sandboxed.
    const frames = screen.getAllByTitle(/メールのプレビュー（無料の読者/);
    expect(frames.map((f) => f.getAttribute('width'))).toEqual(['360', '640']);
    expect(frames[0]!.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(screen.getByText(/editor@example\.jp/).textContent).toContain('メール送信箱');
  });

  it('sends a scheduled post with its publication, and a draft not at all', () => {
    const { unmount } = render(
      <NewsletterStep
        {...props({ post: post({ status: 'scheduled', scheduledAt: '2026-12-01T00:00:00.000Z' }) })}
      />,
    );
    expect(screen.getByRole('button', { name: '公開と同時に配信…' })).toBeTruthy();
    unmount();
    render(<NewsletterStep {...props({ post: post({ status: 'draft' }) })} />);
    expect(screen.queryByRole('group', { name: '配信先' })).toBeNull();
    expect(screen.getByText(/下書きの記事は配信できません/)).toBeTruthy();
  });

  it('lists the post’s earlier sends with where they stand', () => {
    render(<NewsletterStep {...props({ sends: [send] })} />);
    expect(screen.getByRole('link', { name: '無料会員への配信' }).getAttribute('href')).toBe(
      `/admin/newsletter/${send.id}`,
    );
    expect(screen.getByRole('status').textContent).toBe(
      '配信が完了しました: 12 通中 12 通送信済み。',
    );
  });
});

describe('SendConfirm', () => {
  it('asks with the post, the segment and the number of readers', () => {
    expect(confirmQuestion({ post: post(), segment: 'paid', mode: 'now', count: 1234 })).toBe(
      '記事「椅子の百年」を「有料会員」の 1,234 人に配信します。よろしいですか？',
    );
    expect(
      confirmQuestion({ post: post(), segment: 'all', mode: 'withPublication', count: 5 }),
    ).toBe(
      '記事「椅子の百年」を公開と同時に「購読を希望した全員」の 5 人に配信します。よろしいですか？',
    );
  });

  it('asks for an explicit resend when the post reached some of the same readers', () => {
    const base = {
      post: post(),
      segment: 'all' as const,
      mode: 'now' as const,
      count: 3,
      error: null,
    };
    const { unmount } = render(<SendConfirm {...base} overlapping={[]} />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    unmount();
    render(<SendConfirm {...base} overlapping={[send]} />);
    const box = screen.getByRole('checkbox', {
      name: '同じ記事をもう一度配信することを確認しました',
    });
    expect(box).toHaveProperty('required', true);
    expect(screen.getByRole('button', { name: '配信する' })).toBeTruthy();
  });
});
