import type { ConsoleStatus } from '@/lib/admin-content';

/**
 * The newsletter's staff side, as the server and the browser both see it: the segments and
 * their names, what a send and a letter may be, the console's paths, and the rule of when a
 * post's send to a segment needs an explicit resend (docs/decisions/ on the newsletter console).
 */

/** The endpoint whose items are sent as newsletters. */
export const NEWSLETTER_ENDPOINT = 'posts';

export const SEGMENTS = ['all', 'free', 'paid'] as const;
export type Segment = (typeof SEGMENTS)[number];

export const SEGMENT_LABELS: Readonly<Record<Segment, string>> = {
  all: '購読を希望した全員',
  free: '無料会員',
  paid: '有料会員',
};

export const SEGMENT_HINTS: Readonly<Record<Segment, string>> = {
  all: '配信を希望した読者全員（それぞれサイトで読める範囲：有料会員には全文、無料会員には会員限定部分の前まで。無料会員も読める最新の会員限定記事は全文）',
  free: '配信を希望した読者のうち、有料プランのない読者',
  paid: '配信を希望した読者のうち、有料プラン（利用中・お試し中）の読者',
};

/**
 * The two readers a letter is made for: a paid member (the whole post) and a free member (what
 * the site shows them: the whole of a post the free plan opens, else the part above the divider).
 */
export const AUDIENCES = ['free', 'paid'] as const;
export type Audience = (typeof AUDIENCES)[number];

export const AUDIENCE_LABELS: Readonly<Record<Audience, string>> = {
  free: '無料の読者',
  paid: '有料会員',
};

/** now: queued at once (a published post); withPublication: when the scheduler publishes it. */
export const SEND_MODES = ['now', 'withPublication'] as const;
export type SendMode = (typeof SEND_MODES)[number];

export type SendStatus = 'scheduled' | 'queued' | 'sending' | 'done' | 'cancelled';

export const SEND_STATUS_LABELS: Readonly<Record<SendStatus, string>> = {
  scheduled: '公開と同時に配信（予約）',
  queued: '配信待ち',
  sending: '配信中',
  done: '配信完了',
  cancelled: '取り消し',
};

/** A send that is still moving: its page refreshes the counts. */
export const isActiveSend = (status: string): boolean =>
  status === 'queued' || status === 'sending';

/**
 * A send's letters by state, how many readers opened one (the pixel or the post from its link)
 * and how many clicked one of its links (docs/decisions/063-newsletter-analytics.md).
 */
export type LetterCounts = {
  queued: number;
  /** A subject line test's letters waiting for the winner. */
  held: number;
  sending: number;
  sent: number;
  failed: number;
  uncertain: number;
  opened: number;
  clicked: number;
};

/** A send with no letters (yet): one waiting for publication, or a test's starting point. */
export const letterCounts = (over: Partial<LetterCounts> = {}): LetterCounts => ({
  queued: 0,
  held: 0,
  sending: 0,
  sent: 0,
  failed: 0,
  uncertain: 0,
  opened: 0,
  clicked: 0,
  ...over,
});

export const LETTER_COUNT_LABELS: Readonly<Record<keyof LetterCounts, string>> = {
  queued: '配信待ち',
  held: '件名テストの結果待ち',
  sending: '送信中',
  sent: '送信済み',
  failed: '失敗',
  uncertain: '送信結果不明',
  opened: '開封した読者（参考値）',
  clicked: 'リンクをクリックした読者',
};

/** Counts of readers, not of letters. */
export const READER_COUNT_KEYS: readonly (keyof LetterCounts)[] = ['opened', 'clicked'];

/** Why clicks, not opens, are the measure (shown wherever opens are). */
export const OPENS_CAVEAT =
  'Apple のメール（メールプライバシー保護）などは、読者が開かなくても受信時に画像を読み込むため、開封数は実際より多く出ます。読まれたかどうかは、クリックした読者の数で判断してください。';

/** What the status route answers (GET /api/admin/newsletter/sends/{id}). */
export type SendStatusAnswer = { status: SendStatus; counts: LetterCounts; total: number };

export const totalLetters = (counts: LetterCounts): number =>
  counts.queued + counts.held + counts.sending + counts.sent + counts.failed + counts.uncertain;

/** One line that says where a send stands, for the live region. */
export function sendSummary(status: SendStatus, counts: LetterCounts): string {
  const total = totalLetters(counts);
  if (status === 'scheduled') return '記事の公開と同時に配信します。';
  if (status === 'cancelled') return '配信は取り消されました。';
  const done = counts.sent + counts.failed + counts.uncertain;
  const head = status === 'done' ? '配信が完了しました' : SEND_STATUS_LABELS[status];
  const problems = [
    counts.failed ? `失敗 ${counts.failed} 通` : '',
    counts.uncertain ? `結果不明 ${counts.uncertain} 通` : '',
  ].filter(Boolean);
  return `${head}: ${total} 通中 ${counts.sent} 通送信済み${
    status === 'done' || done === total ? '' : `（残り ${total - done} 通）`
  }${problems.length ? `、${problems.join('、')}` : ''}。`;
}

/**
 * Whether a new send to `segment` reaches readers an earlier send of the same post reached
 * (every segment overlaps 「全員」, and itself): then staff confirm the resend explicitly.
 * Cancelled sends reached nobody.
 */
export function overlappingSends<T extends { segment: string; status: string }>(
  earlier: readonly T[],
  segment: Segment,
): T[] {
  return earlier.filter(
    (send) =>
      send.status !== 'cancelled' &&
      (send.segment === segment || send.segment === 'all' || segment === 'all'),
  );
}

export const newsletterPaths = {
  sends: '/admin/newsletter',
  send: (id: string) => `/admin/newsletter/${id}`,
  suppressions: '/admin/newsletter/suppressions',
  /** The 「メールで配信」 step of a post, and the confirmation before sending. */
  step: (contentId: string) => `/admin/content/posts/${contentId}/newsletter`,
  confirm: (contentId: string) => `/admin/content/posts/${contentId}/newsletter/confirm`,
  /** POST contentId, segment, mode, resend?: queues the send. */
  apiSend: '/api/admin/newsletter/sends',
  /** GET: SendStatusAnswer. */
  apiStatus: (id: string) => `/api/admin/newsletter/sends/${id}`,
  /** POST contentId: the letter to the signed-in staff member. */
  apiTest: '/api/admin/newsletter/test',
  /** GET ?audience=free|paid: the letter's HTML alone (staff only, no caching). */
  apiPreview: (contentId: string, audience: Audience) =>
    `/api/admin/newsletter/preview/${contentId}?audience=${audience}`,
  apiSuppress: '/api/admin/newsletter/suppressions',
  apiUnsuppress: '/api/admin/newsletter/suppressions/remove',
} as const;

/** The post of the 「メールで配信」 step. */
export type StepPost = {
  id: string;
  title: string;
  status: ConsoleStatus;
  scheduledAt: string | null;
  publicUrl: string | null;
};

/** A send as the console lists it. */
export type SendView = {
  id: string;
  contentId: string;
  /** The post's title, or '' when the post is gone. */
  title: string;
  segment: Segment;
  status: SendStatus;
  createdAt: string;
  /** Who asked (a name or e-mail); null: the CLI. */
  by: string | null;
  counts: LetterCounts;
};

export type StepSend = SendView;

export type NewsletterStepProps = {
  post: StepPost;
  /** Readers each segment reaches now. */
  counts: Readonly<Record<Segment, number>>;
  /** This post's earlier sends, newest first. */
  sends: readonly SendView[];
  /** The letter's HTML for the chosen audience; null: nothing saved to make it from. */
  preview: { audience: Audience; html: string | null };
  /** Where the test letter goes: the signed-in staff member's address. */
  testTo: string;
  /** No SMTP_URL: mail is kept in the outbox (/admin/mail). */
  outbox: boolean;
};

/** Why an address is on the suppression list (the queue skips it). */
export const SUPPRESSION_REASON_LABELS = {
  bounce: '届かない（バウンス）',
  complaint: '迷惑メールの報告',
  manual: 'スタッフが停止',
} as const;

export type SuppressionView = {
  email: string;
  reason: keyof typeof SUPPRESSION_REASON_LABELS;
  note: string;
  createdAt: string;
  /** Who added it, by name; 'システム' or 'コマンドライン' otherwise. */
  by: string;
};

/** A subject line test's limits and choices (src/server/features/newsletter/subject-test.ts). */
export const SUBJECT_TEST = {
  maxSubjects: 3,
  subjectMaxChars: 150,
  minSamplePercent: 5,
  maxSamplePercent: 50,
  defaultSamplePercent: 20,
  waitHours: [1, 2, 4, 8, 12, 24],
  defaultWaitHours: 4,
} as const;

export const TEST_METRICS = ['clicks', 'opens'] as const;
export type TestMetric = (typeof TEST_METRICS)[number];

export const TEST_METRIC_LABELS: Readonly<Record<TestMetric, string>> = {
  clicks: 'クリックの多い件名（同数なら開封の多い件名）',
  opens: '開封の多い件名（同数ならクリックの多い件名）',
};

/** The send form's subject fields, in order. */
export const SUBJECT_FIELDS = ['subjectA', 'subjectB', 'subjectC'] as const;
