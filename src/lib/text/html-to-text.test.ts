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

  it('joins text across tags when told nothing of edges, as a label is matched', () => {
    // What the regular-expression strippers it replaced got wrong: entities, and a > in an attribute.
    expect(htmlToText('販<b class="x>y">売</b>価格 &amp; 送料')).toBe('販売価格 & 送料');
  });

  it('keeps white space as written, or makes one line of it', () => {
    const html = '<p>\n  一行目</p>\n<p>二&nbsp;&nbsp;行目<br>\t三</p>  ';
    const kept = htmlToText(html, {
      edge: (name, _attribs, end) => (name === 'br' && end === 'open' ? '\n' : ''),
    });
    expect(kept).toBe('\n  一行目\n二\u00a0\u00a0行目\n\t三  ');
    expect(htmlToText(html, { whitespace: 'collapse' })).toBe(kept.replace(/\s+/g, ' ').trim());
    expect(htmlToText(html, { whitespace: 'collapse' })).not.toMatch(/^\s|\s\s|\s$|\u00a0/);
    expect(htmlToText('<p> &nbsp; </p><p>\n</p>', { whitespace: 'collapse' })).toBe('');
  });
});
