// @vitest-environment jsdom
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EmbedFacadeLoader } from './embed-facade-loader.client';

function facade(src: string, title = 'YouTubeの動画') {
  const body = document.createElement('div');
  body.innerHTML = `<span class="frame"><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" data-embed-src="${src}" data-embed-title="${title}">再生する</a></span>`;
  document.body.append(body);
  return body;
}

describe('EmbedFacadeLoader', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('loads the player only when the reader presses play, with autoplay', async () => {
    const body = facade('https://www.youtube.com/embed/dQw4w9WgXcQ?start=42');
    render(<EmbedFacadeLoader />);
    render(<EmbedFacadeLoader />); // a second rich-text block on the page
    expect(body.querySelector('iframe')).toBeNull();
    await userEvent.click(body.querySelector('a')!);
    const players = body.querySelectorAll('iframe');
    expect(players).toHaveLength(1);
    expect(players[0]!.src).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ?start=42&autoplay=1');
    expect(players[0]!.title).toBe('YouTubeの動画');
    expect(body.querySelector('a')).toBeNull();
    expect(document.activeElement).toBe(players[0]);
  });

  it('never loads a player from a URL that is not one', async () => {
    const body = facade('https://evil.example/embed/x');
    render(<EmbedFacadeLoader />);
    const link = body.querySelector('a')!;
    // jsdom does not navigate; the link is simply left to work as a link.
    link.addEventListener('click', (event) => event.preventDefault());
    await userEvent.click(link);
    expect(body.querySelector('iframe')).toBeNull();
    expect(body.querySelector('a')).not.toBeNull();
  });
});
