import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import {
  FREE_PLAN_LETTER_NOTE,
  type LetterInput,
  type LetterPost,
  READ_MORE_LABEL,
  renderNewsletterLetter,
} from './letter';

const SECRET = 'MEMBERS-ONLY-7f3a9c';
const SITE = 'https://axis.example.jp';

const sender: LetterInput['sender'] = {
  siteName: 'AXIS Membership',
  siteUrl: SITE,
  operator: {
    name: '株式会社アクシス',
    address: '〒106-0032 東京都港区六本木5-17-1',
    email: 'info@axis.example.jp',
  },
};

const post = (body: string, more: Partial<LetterPost> = {}): LetterPost => ({
  id: 'post-1',
  title: 'デザインの現場から',
  isPublicPreview: false,
  description: '現場の話',
  coverImage: { url: '/media/cover.jpg', alt: '工房の様子' },
  body,
  publishedAt: '2026-11-20T00:00:00.000Z',
  writers: [{ name: '山田 花子' }],
  ...more,
});

const render = (
  item: LetterPost,
  audience: 'paid' | 'free',
  freePlanPostIds: readonly string[] = [],
) =>
  renderNewsletterLetter({
    item,
    audience,
    recipient: { name: '読者 太郎', email: 'taro@example.jp' },
    unsubscribeUrl: `${SITE}/newsletter/unsubscribe?token=abc`,
    postUrl: `${SITE}/posts/post-1?nl=1`,
    freePlanPostIds,
    sender,
  });

const gatedBody =
  `<p>はじめの段落です。</p><p><img src="/media/a.jpg" alt="作品"></p>` +
  `<p><a href="/posts/other">関連記事</a></p>${MEMBERS_DIVIDER.html}` +
  `<p>会員だけの段落 ${SECRET}</p><p><img src="/media/${SECRET}.jpg" alt="${SECRET}"></p>` +
  `<iframe src="https://www.youtube.com/embed/${SECRET.slice(0, 11)}"></iframe>`;

describe('renderNewsletterLetter: what each audience gets', () => {
  it('never puts the members’ part into a free letter, in HTML or text', () => {
    const letter = render(post(gatedBody), 'free');
    expect(letter.html).toContain('はじめの段落です。');
    expect(letter.text).toContain('はじめの段落です。');
    expect(letter.html).not.toContain(SECRET);
    expect(letter.text).not.toContain(SECRET);
    expect(letter.html).not.toContain(SECRET.slice(0, 11));
    expect(letter.html).toContain(READ_MORE_LABEL);
    expect(letter.text).toContain(`${READ_MORE_LABEL}:\n${SITE}/posts/post-1?nl=1`);
  });

  it('cuts a members’ post without a divider to the lead, as a visitor sees it', () => {
    const body = `<p>${'あ'.repeat(200)}</p><p>${SECRET}${'い'.repeat(200)}</p>`;
    const letter = render(post(body), 'free');
    expect(letter.html).not.toContain(SECRET);
    expect(letter.text).not.toContain(SECRET);
  });

  it('gives paid readers the whole post', () => {
    const letter = render(post(gatedBody), 'paid');
    expect(letter.html).toContain(`会員だけの段落 ${SECRET}`);
    expect(letter.text).toContain(`会員だけの段落 ${SECRET}`);
    expect(letter.html).not.toContain(READ_MORE_LABEL);
  });

  it('gives a free member the whole of a members’ post the free plan opens, and says why', () => {
    const letter = render(post(gatedBody), 'free', ['post-1']);
    expect(letter.text).toContain(`会員だけの段落 ${SECRET}`);
    expect(letter.html).toContain(`会員だけの段落 ${SECRET}`);
    expect(letter.text).not.toContain('有料会員の方がサイトでお読みいただけます');
    expect(letter.html).not.toContain(READ_MORE_LABEL);
    expect(letter.text).toContain(FREE_PLAN_LETTER_NOTE);
    expect(letter.html).toContain(FREE_PLAN_LETTER_NOTE);
    // Another post in the list opens nothing here; a paid letter needs no note.
    expect(render(post(gatedBody), 'free', ['post-2']).text).not.toContain(SECRET);
    expect(render(post(gatedBody), 'paid', ['post-1']).text).not.toContain(FREE_PLAN_LETTER_NOTE);
  });

  it('gives everyone the whole of a public-preview post', () => {
    const letter = render(post(gatedBody, { isPublicPreview: true }), 'free');
    expect(letter.text).toContain(SECRET);
    expect(letter.html).not.toContain(READ_MORE_LABEL);
  });

  it('takes the post’s title as the subject', () => {
    expect(render(post('<p>x</p>'), 'free').subject).toBe('デザインの現場から');
  });
});

describe('renderNewsletterLetter: e-mail-safe markup', () => {
  const letter = render(post(gatedBody), 'paid');
  const document = parseDocument(letter.html);
  const elements = DomUtils.findAll(() => true, document.children);

  it('makes every image and link absolute, with alt texts', () => {
    const images = elements.filter((e) => e.name === 'img');
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const image of images) {
      expect(image.attribs.src).toMatch(/^https:\/\//);
      expect(image.attribs).toHaveProperty('alt');
    }
    for (const link of elements.filter((e) => e.name === 'a')) {
      expect(link.attribs.href).toMatch(/^(https:\/\/|mailto:)/);
    }
    expect(letter.html).toContain(`${SITE}/posts/other`);
    expect(letter.text).toContain(`関連記事（${SITE}/posts/other）`);
  });

  it('turns a player into a linked thumbnail, never an iframe', () => {
    expect(elements.some((e) => e.name === 'iframe' || e.name === 'script')).toBe(false);
    const id = SECRET.slice(0, 11);
    expect(letter.html).toContain(`https://i.ytimg.com/vi/${id}/hqdefault.jpg`);
    expect(letter.html).toContain(`https://www.youtube.com/watch?v=${id}`);
    expect(letter.text).toContain(`https://www.youtube.com/watch?v=${id}`);
  });

  it('turns an X post into a plain link', () => {
    const x = render(
      post(
        '<figure><a href="https://x.com/axis/status/123">https://x.com/axis/status/123</a></figure>',
      ),
      'paid',
    );
    expect(x.html).toContain('X（旧Twitter）の投稿を見る');
    expect(x.text).toContain('https://x.com/axis/status/123');
  });

  it('styles inline in one column of at most 600 px', () => {
    expect(letter.html).toContain('max-width:600px');
    expect(letter.html).toContain('lang="ja"');
    expect(letter.html).toContain('Noto Sans JP');
    expect(elements.some((e) => e.name === 'link')).toBe(false);
    for (const p of elements.filter((e) => e.name === 'p')) expect(p.attribs.style).toBeTruthy();
  });

  it('drops markup the sanitiser refuses', () => {
    const bad = render(
      post('<p onclick="x()">a<script>alert(1)</script></p><a href="javascript:x()">j</a>'),
      'paid',
    );
    expect(bad.html).not.toContain('onclick');
    expect(bad.html).not.toContain('alert');
    expect(bad.html).not.toContain('javascript:');
  });
});

describe('renderNewsletterLetter: the 特定電子メール法 footer', () => {
  for (const audience of ['free', 'paid'] as const) {
    it(`names the sender, address, contact, the reason and how to stop (${audience})`, () => {
      const letter = render(post('<p>x</p>'), audience);
      for (const part of [letter.html, letter.text]) {
        expect(part).toContain('株式会社アクシス');
        expect(part).toContain('東京都港区六本木5-17-1');
        expect(part).toContain('info@axis.example.jp');
        expect(part).toContain('taro@example.jp');
        expect(part).toContain('ニュースレターの受け取りを希望された');
        expect(part).toContain('配信停止');
        expect(part).toContain(`${SITE}/newsletter/unsubscribe?token=abc`);
        expect(part).toMatch(/停止/);
      }
    });
  }

  it('points to the 特定商取引法 page when the address is disclosed on request', () => {
    const letter = renderNewsletterLetter({
      item: post('<p>x</p>'),
      audience: 'free',
      recipient: { name: '', email: 'a@example.jp' },
      unsubscribeUrl: `${SITE}/u`,
      postUrl: `${SITE}/posts/post-1`,
      freePlanPostIds: [],
      sender: { ...sender, operator: { ...sender.operator, address: null } },
    });
    expect(letter.text).toContain(`${SITE}/specified-commercial-transactions`);
  });
});
