// @vitest-environment jsdom
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { withEmbedFacades } from './embed-facades';

function render(html: string) {
  const result = withEmbedFacades(sanitizeRichText(html));
  const template = document.createElement('template');
  template.innerHTML = result.html;
  return { ...result, root: template.content };
}

describe('withEmbedFacades', () => {
  it('leaves a body without embeds exactly as it is', () => {
    const html =
      '<h2>見出し</h2><p>本文 &amp; <a href="/x">リンク</a></p><figure><img src="/a.png" alt="a" /></figure>';
    expect(withEmbedFacades(sanitizeRichText(html))).toEqual({
      html: sanitizeRichText(html),
      hasPlayers: false,
    });
  });

  it('turns a YouTube iframe into a play link to the watch page, loading nothing', () => {
    const { root, hasPlayers } = render(
      '<p>前</p><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=42" width="560" height="315" title="YouTube video player" allowfullscreen></iframe><p>後</p>',
    );
    expect(hasPlayers).toBe(true);
    expect(root.querySelector('iframe, script, img')).toBeNull();
    const link = root.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s');
    expect(link.dataset.embedSrc).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ?start=42');
    expect(link.dataset.embedTitle).toBe('YouTubeの動画');
    expect(link.textContent).toContain('YouTubeの動画を再生する');
    expect(link.textContent).toContain('再生すると YouTube のプレーヤーを読み込みます');
    // The facade stands where the player stood, between the paragraphs.
    expect([...root.children].map((e) => e.localName)).toEqual(['p', 'span', 'p']);
  });

  it('names a Vimeo player by its title and links to vimeo.com', () => {
    const { root } = render(
      '<iframe src="https://player.vimeo.com/video/123456789?h=abcdef" title="工房の一日"></iframe>',
    );
    const link = root.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://vimeo.com/123456789/abcdef');
    expect(link.dataset.embedTitle).toBe('工房の一日');
    expect(link.textContent).toContain('動画「工房の一日」を再生する');
  });

  it('escapes a title that carries markup', () => {
    const { root } = render(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="&lt;img src=x onerror=alert(1)&gt;&quot;"></iframe>',
    );
    expect(root.querySelector('img')).toBeNull();
    // Inside a quoted attribute `<` is only text; in text it must be escaped.
    expect(root.querySelector('a')!.textContent).toContain('動画「<img src=x onerror=alert(1)>"」');
    expect(root.querySelector('a')!.dataset.embedTitle).toBe('<img src=x onerror=alert(1)>"');
  });

  it('turns X and Instagram posts into cards linking to the post', () => {
    const { root, hasPlayers } = render(
      '<figure><a href="https://x.com/designer/status/1234567890">https://x.com/designer/status/1234567890</a></figure>' +
        '<figure><a href="https://www.instagram.com/reel/Cabc123_-/">https://www.instagram.com/reel/Cabc123_-/</a></figure>',
    );
    expect(hasPlayers).toBe(false);
    const links = [...root.querySelectorAll('figure > a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://x.com/designer/status/1234567890',
      'https://www.instagram.com/reel/Cabc123_-/',
    ]);
    expect(links[0]!.textContent).toContain('@designer さんの投稿を X で見る');
    expect(links[1]!.textContent).toContain('Instagram のリールを見る');
    expect(root.querySelector('script, iframe, blockquote')).toBeNull();
  });

  it('leaves look-alike posts as ordinary figures and links', () => {
    const html = [
      '<figure><a href="https://x.com.evil.example/a/status/1">https://x.com.evil.example/a/status/1</a></figure>',
      '<figure><a href="https://x.com/a/status/1?utm=1">x</a></figure>',
      '<figure><a href="https://x.com/a/status/1">x</a><figcaption>説明</figcaption></figure>',
      '<figure>前置き<a href="https://x.com/a/status/1">x</a></figure>',
      '<p><a href="https://x.com/a/status/1">x</a></p>',
    ].join('');
    expect(withEmbedFacades(sanitizeRichText(html)).html).toBe(sanitizeRichText(html));
  });

  it('never nests a facade link inside a link', () => {
    const { root, hasPlayers } = render(
      '<p><a href="/x">前<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>後</a></p>',
    );
    expect(hasPlayers).toBe(false);
    expect(root.querySelectorAll('a')).toHaveLength(1);
    expect(root.querySelector('iframe, [data-embed-src]')).toBeNull();
    expect(root.textContent).toBe('前後');
  });

  it('keeps the members’ divider and other markup through the rewrite', () => {
    const { html } = render(
      '<p>リード</p><hr data-members-divider /><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe><p>A &amp; B &lt;c&gt; 日本語</p><figure><img src="/a.png" alt="" /></figure>',
    );
    expect(html).toMatch(/^<p>リード<\/p><hr data-members-divider(="")?>/);
    expect(html).toContain('<p>A &amp; B &lt;c&gt; 日本語</p>');
    expect(html).toMatch(/<img src="\/a.png" alt(="")?>/);
  });
});
