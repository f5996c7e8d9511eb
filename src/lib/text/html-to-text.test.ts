import { describe, expect, it } from 'vitest';
import { htmlToText, STOP, walkHtml } from './html-to-text';

describe('walkHtml', () => {
  it('pairs opens and closes, implied and void ones too, and skips left-out elements', () => {
    const events: string[] = [];
    walkHtml(
      '<p>a<br>b<script>x</script><figure><img src="i">c</figure><b>d',
      {
        open: (name) => void events.push(`<${name}>`),
        text: (text) => void events.push(text),
        close: (name) => void events.push(`</${name}>`),
      },
      { skip: new Set(['script', 'figure']) },
    );
    expect(events.join('')).toBe('<p>a<br></br>b</p><b>d</b>'); // a figure ends the p;
  });

  it('stops when a visitor says so', () => {
    const texts: string[] = [];
    walkHtml('<p>one</p><hr><p>two</p>', {
      open: (name) => (name === 'hr' ? STOP : undefined),
      text: (text) => void texts.push(text),
    });
    expect(texts).toEqual(['one']);
  });
});

describe('htmlToText', () => {
  it('decodes entities once and replaces tag edges as told', () => {
    expect(
      htmlToText('<p>A &amp;lt; &copy;</p><p>B</p>', {
        edge: (name, _attribs, end) => (name === 'p' && end === 'close' ? '|' : ''),
      }),
    ).toBe('A &lt; ©|B|');
  });
});
