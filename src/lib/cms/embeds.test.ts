import { embedFromUrl, embedPageUrl, playerEmbed, playerSrc, postEmbed } from '@/lib/cms/embeds';

describe('embedFromUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    [
      'https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&t=1m30s',
      'https://www.youtube.com/embed/dQw4w9WgXcQ?start=90',
    ],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=42', 'https://www.youtube.com/embed/dQw4w9WgXcQ?start=42'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    [
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
    ],
    ['  https://www.youtube.com/embed/dQw4w9WgXcQ  ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/123456789', 'https://player.vimeo.com/video/123456789'],
    [
      'https://vimeo.com/123456789/abcdef1234',
      'https://player.vimeo.com/video/123456789?h=abcdef1234',
    ],
    [
      'https://player.vimeo.com/video/123456789?h=abcdef&badge=0',
      'https://player.vimeo.com/video/123456789?h=abcdef',
    ],
    [
      'https://twitter.com/designer/status/1234567890?s=20',
      'https://x.com/designer/status/1234567890',
    ],
    [
      'https://x.com/designer/status/1234567890/photo/1',
      'https://x.com/designer/status/1234567890',
    ],
    [
      'https://mobile.twitter.com/designer/statuses/1234567890',
      'https://x.com/designer/status/1234567890',
    ],
    ['https://www.instagram.com/p/Cabc123_-/?igsh=xyz', 'https://www.instagram.com/p/Cabc123_-/'],
    ['https://instagram.com/reels/Cabc123_-', 'https://www.instagram.com/reel/Cabc123_-/'],
    ['https://www.instagram.com/designer/p/Cabc123_-/', 'https://www.instagram.com/p/Cabc123_-/'],
  ])('reads %s', (input, url) => {
    expect(embedFromUrl(input)?.url).toBe(url);
  });

  it.each([
    '',
    'not a url',
    'javascript:alert(1)//https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'data:text/html,https://youtu.be/dQw4w9WgXcQ',
    'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evil.example/?https://youtu.be/dQw4w9WgXcQ',
    'https://youtube.com@evil.example/watch?v=dQw4w9WgXcQ',
    'https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ%22onload',
    'https://www.youtube.com/redirect?q=https://evil.example',
    'https://www.youtube.com/embed/%2e%2e/redirect',
    'https://youtu.be/dQw4w9WgXcQ/../../redirect',
    'https://vimeo.com/channels/staffpicks',
    'https://vimeo.com/123456789/abcdef/extra',
    'https://x.com/designer',
    'https://x.com/designer/status/abc',
    'https://x.com/i/web/status/../../evil',
    'https://xx.com/designer/status/1234567890',
    'https://x.com.evil.example/designer/status/1234567890',
    'https://www.instagram.com/designer/',
    'https://www.instagram.com/p/a/',
    'https://www.instagram.com/p/Cabc123%2F..%2F/',
  ])('refuses %s', (input) => {
    expect(embedFromUrl(input)).toBeNull();
  });
});

describe('playerSrc (the sanitiser’s rule for <iframe src>)', () => {
  it('keeps players, in the parsed spelling', () => {
    expect(playerSrc('https://WWW.YOUTUBE.COM/embed/abc?start=10')).toBe(
      'https://www.youtube.com/embed/abc?start=10',
    );
    expect(playerSrc('https://player.vimeo.com/video/1')).toBe('https://player.vimeo.com/video/1');
  });

  it.each([
    'http://www.youtube.com/embed/abc',
    '//www.youtube.com/embed/abc',
    'https://www.youtube.com/embed/',
    'https://www.youtube.com/watch?v=abc',
    'https://www.youtube.com/embed/%2e%2e/redirect',
    'https://www.youtube.com/embed/..%2F../x',
    'https://youtube.com/embed/abc',
    'https://a@www.youtube.com/embed/abc',
    'https://www.youtube.com:443x/embed/abc',
    'https://www.youtube.com:8080/embed/abc',
    'https://player.vimeo.com.evil.example/video/1',
    'https://player.vimeo.com/videos/1',
    'javascript:alert(1)',
  ])('refuses %s', (src) => {
    // `/embed/..%2F../x` stays under /embed/ once parsed, so it is a (broken) YouTube player,
    // never another page: check the host and prefix either way.
    const kept = playerSrc(src);
    if (kept) expect(kept.startsWith('https://www.youtube.com/embed/')).toBe(true);
    else expect(kept).toBeNull();
    if (!src.includes('..%2F')) expect(kept).toBeNull();
  });
});

describe('postEmbed (a stored X or Instagram post)', () => {
  it('recognises only the canonical spelling', () => {
    expect(postEmbed('https://x.com/designer/status/1')).toEqual({
      provider: 'x',
      url: 'https://x.com/designer/status/1',
    });
    expect(postEmbed('https://www.instagram.com/reel/Cabc123/')?.provider).toBe('instagram');
    for (const href of [
      'https://twitter.com/designer/status/1',
      'https://x.com/designer/status/1?ref=a',
      'https://x.com/designer/status/1#x',
      'https://x.com/designer/status/1/',
      'http://x.com/designer/status/1',
      'https://x.com/designer/status/1" onclick="x',
      ' https://x.com/designer/status/1',
      'https://www.instagram.com/p/Cabc123',
      'https://instagram.com/p/Cabc123/',
      'https://www.instagram.com/p/Cabc123/?x=1',
    ]) {
      expect(postEmbed(href), href).toBeNull();
    }
  });
});

describe('embedPageUrl', () => {
  it('links a player to its watch page, and a post to itself', () => {
    expect(embedPageUrl(playerEmbed('https://www.youtube.com/embed/dQw4w9WgXcQ?start=42')!)).toBe(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    );
    expect(embedPageUrl(playerEmbed('https://player.vimeo.com/video/123?h=abcdef')!)).toBe(
      'https://vimeo.com/123/abcdef',
    );
    // An unusual player path: the player itself, never something built from it.
    expect(embedPageUrl(playerEmbed('https://www.youtube.com/embed/videoseries?list=PL1')!)).toBe(
      'https://www.youtube.com/embed/videoseries?list=PL1',
    );
    expect(embedPageUrl({ provider: 'x', url: 'https://x.com/a/status/1' })).toBe(
      'https://x.com/a/status/1',
    );
  });
});
