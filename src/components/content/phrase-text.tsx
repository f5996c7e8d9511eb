import 'server-only';
import { loadDefaultJapaneseParser } from 'budoux';
import { Fragment } from 'react';
import { rememberLast } from '@/lib/remember-last';

/**
 * Japanese text broken only between phrases (BudouX): a <wbr> between phrases, while the CSS
 * (`word-break: keep-all; overflow-wrap: anywhere`) keeps each phrase whole. For headings.
 */
const parser = loadDefaultJapaneseParser();

/** Titles and headings come back on every render: their phrases are kept. */
const phrasesOf = rememberLast(1000, (text) => Object.freeze(parser.parse(text)));

export function PhraseText({ text }: { text: string }) {
  const phrases = phrasesOf(text);
  return (
    <>
      {phrases.map((phrase, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {phrase}
        </Fragment>
      ))}
    </>
  );
}
